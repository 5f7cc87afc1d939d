// What a page may follow of the plots it shows: the streamed traces of each plot the viewer may read
// (the reader rule, a share key counting as on the page), with their states. Nothing says a token.
import type { Db } from '@/db/client';
import type { StreamEvent } from '@/lib/shared/streams';
import type { Viewer } from '../permissions';
import { readableAs } from '../permissions';
import { getPlotFile } from '../plots/plots';
import { parseFid } from '../records';
import { type PlotStream, plotFigureOf, plotStreams, readStreamStates } from './stream-state';

export interface PlotFollow {
  fid: string;
  traces: PlotStream[];
}

/** The plots among `fids` the viewer may read that have streamed traces; refused and missing ones are left out alike. */
export async function plotFollows(db: Db, viewer: Viewer | null, fids: string[], shareKey?: string | null): Promise<PlotFollow[]> {
  const follows: PlotFollow[] = [];
  for (const value of fids) {
    const fid = parseFid(value);
    const file = fid ? readableAs(await getPlotFile(db, fid, viewer), viewer, shareKey) : undefined;
    if (!file) continue;
    const traces = await plotStreams(db, file.ownerId, await plotFigureOf(db, file.id));
    if (traces.length > 0) follows.push({ fid: value, traces });
  }
  return follows;
}

/** Each followed plot's whole streamed state, as the first events of a page's stream, and the writes each token's state holds. */
export async function stateEvents(db: Db, follows: PlotFollow[]): Promise<{ events: StreamEvent[]; seqs: Map<number, number> }> {
  const states = await readStreamStates(db, [...new Set(follows.flatMap((f) => f.traces.map((t) => t.tokenId)))]);
  const events = follows.flatMap((f) =>
    f.traces.flatMap(({ index, maxpoints, tokenId }) => {
      const state = states.get(tokenId);
      return state ? [{ fid: f.fid, traces: [{ index, maxpoints }], state: { trace: state.trace, layout: state.layout } }] : [];
    }),
  );
  return { events, seqs: new Map([...states].map(([id, state]) => [id, state.seq])) };
}
