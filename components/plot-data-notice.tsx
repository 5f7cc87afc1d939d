// What a plot's owner is told about its data (lib/core/plots/plot-data-sharing.ts): which grids it draws
// from are as private as the plot, which stay public and why, and, when some need not be public, a
// button that makes them private. Shown in the workspace after a plot's sharing changed and on the
// owner's plot page.
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { GridFate, PlotData, PlotGrid } from '@/lib/core/plots/plot-data-sharing';
import { filePath } from '@/lib/shared/urls';
import { ActionForm, type FormAction } from './action-form';
import { CsrfField } from './csrf-field';
import { type Back, type View, ViewFields } from './file-forms';

/** Grids named a group; the rest are counted. */
const NAMED_GRIDS = 20;

function GridList({ grids, why }: { grids: PlotGrid[]; why?: (grid: PlotGrid) => ReactNode }) {
  const more = grids.length - NAMED_GRIDS;
  return (
    <ul className="data-grids">
      {grids.slice(0, NAMED_GRIDS).map((g) => (
        <li key={`${g.owner}:${g.n}`}>
          <Link href={filePath(g.owner, g.n)}>{g.filename}</Link>
          {why?.(g)}
        </li>
      ))}
      {more > 0 && <li>and {more.toLocaleString('en')} more</li>}
    </ul>
  );
}

function UsedBy({ grid, owner }: { grid: PlotGrid; owner: string }) {
  const rest = grid.publicPlotCount - grid.publicPlots.length;
  return (
    <>
      {' '}
      (used by{' '}
      {grid.publicPlots.map((p, i) => (
        <span key={p.n}>
          {i > 0 && (i === grid.publicPlots.length - 1 && rest <= 0 ? ' and ' : ', ')}
          <Link href={filePath(owner, p.n)}>{p.name}</Link>
        </span>
      ))}
      {rest > 0 && ` and ${rest.toLocaleString('en')} more`})
    </>
  );
}

interface Props {
  data: PlotData;
  /** The plot's name as its page shows it. */
  name: string;
  /** `warning` (the plot page: only when a private or secret plot reads public data) or `summary` (just changed). */
  mode: 'warning' | 'summary';
  headingLevel: 2 | 3;
  /** The one-click fix's form action, with what it needs. */
  fix: { action: FormAction; csrf: string; back: Back; view?: View };
}

/** Whether a private or secret plot reads public data (the plot page warns about it). */
export function readsPublicData(data: PlotData): boolean {
  return data.plot.visibility !== 'public' && data.grids.some((g) => g.visibility === 'public');
}

export function PlotDataNotice({ data, name, mode, headingLevel, fix }: Props) {
  const by = (...fates: GridFate[]) => data.grids.filter((g) => fates.includes(g.fate));
  const owner = data.plot.owner;
  const secret = data.plot.visibility === 'secret';
  const Heading = `h${headingLevel}` as const;
  const id = `plot-data-${data.plot.n}`;
  const publicPlot = data.plot.visibility === 'public';
  const follows = by('follows');
  const kept = by('already').filter((g) => g.visibility !== 'public');
  const held = by('public-plot');
  const others = by('other-owner');
  const widened = by('kept-private');
  const shown = {
    follows: follows.length > 0,
    kept: !publicPlot && mode === 'summary' && kept.length > 0,
    held: held.length > 0,
    others: !publicPlot && others.length > 0,
    widened: widened.length > 0,
  };
  if (!Object.values(shown).some(Boolean)) return null;
  return (
    <section className="notice plot-data" aria-labelledby={id}>
      <Heading id={id}>{mode === 'warning' ? `This ${secret ? 'secret' : 'private'} plot reads public data` : `The data of “${name}”`}</Heading>
      {shown.follows && (
        <div className="data-group">
          <p>
            {follows.length === 1
              ? 'This grid is public (anyone can open it and download its data), though no public plot of yours uses it:'
              : 'These grids are public (anyone can open them and download their data), though no public plot of yours uses them:'}
          </p>
          <GridList grids={follows} />
          <ActionForm
            action={fix.action}
            submit={follows.length === 1 ? 'Make this grid private' : 'Make these grids private'}
            className="inline-form"
            fields={
              <>
                <CsrfField token={fix.csrf} />
                <input type="hidden" name="fid" value={`${owner}:${data.plot.n}`} />
                <input type="hidden" name="back" value={String(fix.back)} />
                <ViewFields view={fix.view} />
              </>
            }
          />
        </div>
      )}
      {shown.kept && (
        <div className="data-group">
          <p>Private, like the plot:</p>
          <GridList grids={kept} />
        </div>
      )}
      {shown.held && (
        <div className="data-group">
          <p>Still public, because another public plot of yours uses {held.length === 1 ? 'it' : 'them'}:</p>
          <GridList grids={held} why={(g) => <UsedBy grid={g} owner={owner} />} />
        </div>
      )}
      {shown.others && (
        <div className="data-group">
          <p>Still public, because {others.length === 1 ? 'it belongs' : 'they belong'} to someone else:</p>
          <GridList grids={others} why={(g) => <> (by {g.owner})</>} />
        </div>
      )}
      {shown.widened && (
        <div className="data-group">
          <p>
            Still private: anyone who can see the plot sees the columns it draws, not the rest of {widened.length === 1 ? 'this grid' : 'these grids'}. Make a
            grid public yourself to share all of it.
          </p>
          <GridList grids={widened} />
        </div>
      )}
      {secret && mode === 'summary' && <p>People with the plot’s secret link still see its chart and its data.</p>}
    </section>
  );
}
