// npm run import:figures -- <files or folders>... --owner <user> [--keep-numbers] [--public]
// "Bring your charts" for operators: each file (a zip's figures together) or folder (every file below
// it together, in a folder named after it) is one batch, read and stored as lib/core/imports does for
// the web; a line per figure as it goes, and a summary. Run again, it skips what it made.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getUserByUsername } from '@/lib/core/accounts/users';
import { IMPORT_LIMITS } from '@/lib/shared/figure-import-limits';
import { readFigureFiles, type FigureFile } from '@/lib/core/imports/figure-files';
import { importFigures } from '@/lib/core/imports/import-figures';
import { CommandError, runCommand } from './cli';

const usage = 'npm run import:figures -- <files or folders>... --owner <user> [--keep-numbers] [--public]';
/** Files read below one folder at most. */
const MAX_FOLDER_FILES = 10_000;

/** The files of one argument (a file, or every file below a folder: symbolic links not followed), and those over the size limit. */
function filesOf(arg: string): { files: FigureFile[]; tooLarge: string[] } {
  const out = { files: [] as FigureFile[], tooLarge: [] as string[] };
  const add = (full: string, name: string, folder?: string) => {
    if (lstatSync(full).size > IMPORT_LIMITS.maxSourceBytes) out.tooLarge.push(name);
    else out.files.push({ name, bytes: readFileSync(full), ...(folder ? { folder } : {}) });
  };
  if (!lstatSync(arg).isDirectory()) {
    add(arg, path.basename(arg));
    return out;
  }
  const folder = path.basename(path.resolve(arg));
  let count = 0;
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        if (++count > MAX_FOLDER_FILES) throw new CommandError(`${arg} holds more than ${MAX_FOLDER_FILES} files: import its folders one at a time.`);
        add(full, path.relative(arg, full), folder);
      }
    }
  };
  walk(arg);
  return out;
}

await runCommand(
  usage,
  { owner: { type: 'string' }, 'keep-numbers': { type: 'boolean' }, public: { type: 'boolean' } },
  async (db, { values, positionals }) => {
    if (!positionals.length || typeof values.owner !== 'string') throw new CommandError(`Usage: ${usage}`);
    const user = await getUserByUsername(db, values.owner);
    if (!user) throw new CommandError(`No user '${values.owner}'.`);
    const owner = { id: user.id, username: user.username };
    const origin = (process.env.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
    const totals = { made: 0, skipped: 0, refused: 0 };
    for (const [i, arg] of positionals.entries()) {
      let found: ReturnType<typeof filesOf>;
      try {
        found = filesOf(arg);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CommandError(`${arg}: no such file or folder.`);
        throw error;
      }
      const batch = await readFigureFiles(found.files);
      for (const name of found.tooLarge) batch.refused.push({ label: name, reason: `larger than ${IMPORT_LIMITS.maxSourceBytes / 1024 / 1024} MiB` });
      console.log(`[${i + 1}/${positionals.length}] ${arg}: ${batch.figures.length} figure${batch.figures.length === 1 ? '' : 's'}`);
      const result = await importFigures(db, owner, batch, {
        origin,
        keepNumbers: values['keep-numbers'] === true,
        worldReadable: values.public === true,
        onProgress: (done, total, line) => console.log(`  ${done}/${total} ${line}`),
      });
      for (const r of batch.refused) console.log(`  refused ${r.label}: ${r.reason}`);
      totals.made += result.made.length;
      totals.skipped += result.skipped.length;
      totals.refused += result.refused.length;
    }
    console.log(`${totals.made} plots made, ${totals.skipped} skipped (imported before), ${totals.refused} refused.`);
    if (totals.refused) process.exitCode = 1;
  },
);
