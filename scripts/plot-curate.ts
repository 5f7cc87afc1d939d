// npm run plot:curate -- <fid> [--quality N] [--handpicked true|false]
import { curatePlot } from '@/lib/core/plots/curation';
import { ApiError } from '@/lib/core/errors';
import { CommandError, runCommand } from './cli';

const usage = 'npm run plot:curate -- <fid> [--quality 0..10] [--handpicked true|false]';
await runCommand(usage, { quality: { type: 'string' }, handpicked: { type: 'string' } }, async (db, { values, positionals }) => {
  if (positionals.length !== 1 || (values.quality === undefined && values.handpicked === undefined)) throw new CommandError(`Usage: ${usage}`);
  const plot = await curatePlot(db, positionals[0], {
    quality: values.quality as string | undefined,
    handpicked: values.handpicked as string | undefined,
  }).catch((e: unknown) => {
    // The API's 404 sentence ("Not found.") does not say what was not found.
    if (e instanceof ApiError && e.status === 404) throw new CommandError(`No live plot '${positionals[0]}'.`);
    throw e;
  });
  console.log(`${plot.fid}: quality ${plot.quality}, handpicked ${plot.handpicked}`);
});
