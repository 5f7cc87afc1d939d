// npm run plot:curate -- <fid> [--quality N] [--handpicked true|false]
import { curatePlot } from '@/lib/core/curation';
import { runCommand } from './cli';

const usage = 'npm run plot:curate -- <fid> [--quality 0..10] [--handpicked true|false]';
await runCommand(usage, { quality: { type: 'string' }, handpicked: { type: 'string' } }, async (db, { values, positionals }) => {
  if (positionals.length !== 1 || (values.quality === undefined && values.handpicked === undefined)) throw new Error(`Usage: ${usage}`);
  const plot = await curatePlot(db, positionals[0], {
    quality: values.quality as string | undefined,
    handpicked: values.handpicked as string | undefined,
  });
  console.log(`${plot.fid}: quality ${plot.quality}, handpicked ${plot.handpicked}`);
});
