'use client';
// "Bring your charts" on /create: the chosen or dropped files (plotly figure JSON, plotly's HTML pages,
// notebooks, zips) sent one request a file to POST /v2/figure-imports, with progress, and what each
// became: the plots made (links), those imported before, and the refused with their reasons.
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useId, useState } from 'react';
import { IMPORT_LIMITS } from '@/lib/shared/figure-import-limits';
import { callApi, problemText } from '../api-client';

interface Made {
  label: string;
  fid: string;
  name: string;
  folder: string;
  path: string;
}
interface Listed {
  label: string;
  reason: string;
  path?: string;
}
interface Answer {
  made: Made[];
  skipped: (Listed & { path: string })[];
  refused: Listed[];
}

const DATA_FILE = /\.(csv|tsv|tab|txt|xlsx)$/i;
const MAX_MIB = IMPORT_LIMITS.maxSourceBytes / 1024 / 1024;

/** A file's bytes as base64 (the data URL's tail). */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function BringCharts() {
  const id = useId();
  const router = useRouter();
  const [keepNumbers, setKeepNumbers] = useState(false);
  const [publicPlots, setPublicPlots] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number; name: string } | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);

  const bring = useCallback(
    async (files: File[]) => {
      if (!files.length || progress) return;
      const result: Answer = { made: [], skipped: [], refused: [] };
      setAnswer(result);
      for (const [i, file] of files.entries()) {
        setProgress({ done: i, total: files.length, name: file.name });
        if (DATA_FILE.test(file.name)) result.refused.push({ label: file.name, reason: 'a data file: choose it under "Data file" above' });
        else if (file.size > IMPORT_LIMITS.maxSourceBytes) result.refused.push({ label: file.name, reason: `larger than ${MAX_MIB} MiB` });
        else {
          const sent = await callApi<Answer>('/v2/figure-imports', {
            method: 'POST',
            body: { filename: file.name, content: await base64Of(file), keep_numbers: keepNumbers, world_readable: publicPlots },
            busyRetries: 5,
          }).catch(() => null);
          if (sent?.ok) {
            result.made.push(...sent.body.made);
            result.skipped.push(...sent.body.skipped);
            result.refused.push(...sent.body.refused);
          } else {
            const reason = sent ? problemText(sent, (status) => `not imported (error ${status})`) : 'not sent: the connection failed';
            result.refused.push({ label: file.name, reason });
          }
        }
        setAnswer({ ...result });
      }
      setProgress(null);
      // The page's own lists (your grids) take in what was made.
      if (result.made.length) router.refresh();
    },
    [keepNumbers, publicPlots, progress, router],
  );

  // Files dropped anywhere on the page are brought too (a drop on the data import's own input is its).
  useEffect(() => {
    const over = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer?.files.length || (e.target instanceof HTMLInputElement && e.target.type === 'file')) return;
      e.preventDefault();
      void bring([...e.dataTransfer.files]);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [bring]);

  return (
    <section aria-labelledby={`${id}-heading`} className="bring-charts">
      <h2 id={`${id}-heading`}>Or bring the charts you kept</h2>
      <div className="form">
        <label>
          Bring your charts
          <input
            type="file"
            multiple
            accept=".json,.html,.htm,.ipynb,.zip"
            aria-describedby={`${id}-hint`}
            disabled={progress !== null}
            onChange={(e) => {
              void bring([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </label>
        <p id={`${id}-hint`} className="muted import-hint">
          Plotly figure JSON (fig.write_json, Chart Studio's downloads), HTML pages plotly made, Jupyter notebooks and .zip files of these, at most {MAX_MIB}{' '}
          MiB each; or drop them on this page. Each figure becomes a chart on a grid of its data, in a folder named after its file.
        </p>
        <label className="checkbox">
          <input type="checkbox" checked={keepNumbers} onChange={(e) => setKeepNumbers(e.target.checked)} />
          Keep the numbers their Chart Studio files say (~you/N), where free
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={publicPlots} onChange={(e) => setPublicPlots(e.target.checked)} />
          Public (else only you see them)
        </label>
      </div>
      {progress && (
        <div className="import-progress">
          <label htmlFor={`${id}-progress`}>
            Importing {progress.name} ({progress.done + 1} of {progress.total})…
          </label>
          <progress id={`${id}-progress`} max={progress.total} value={progress.done} />
        </div>
      )}
      {answer && (
        <div className="bring-results" aria-live="polite">
          <h3>Charts made ({answer.made.length})</h3>
          {answer.made.length ? (
            <ul className="bring-made">
              {answer.made.map((p) => (
                <li key={p.fid}>
                  <a href={p.path}>{p.name}</a>{' '}
                  <span className="muted">
                    from {p.label}, in {p.folder}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">None{progress ? ' yet' : ''}.</p>
          )}
          {answer.skipped.length > 0 && (
            <>
              <h3>Imported before ({answer.skipped.length})</h3>
              <ul>
                {answer.skipped.map((s) => (
                  <li key={`${s.label}-${s.path}`}>
                    {s.label}: <a href={s.path}>the chart made of it</a>
                  </li>
                ))}
              </ul>
            </>
          )}
          {answer.refused.length > 0 && (
            <>
              <h3>Refused ({answer.refused.length})</h3>
              <ul className="bring-refused">
                {answer.refused.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: one file may be refused twice (sent twice), each listed
                  <li key={i}>
                    <strong>{r.label}</strong>: {r.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}
