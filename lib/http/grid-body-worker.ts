// A body worker thread (started by lib/http/body-workers.ts): prepares one large grid body at a time.
import { parentPort } from 'node:worker_threads';
import { prepareGridBody, type GridBody } from './grid-bodies';

parentPort!.on('message', ({ kind, bytes }: { kind: GridBody; bytes: ArrayBuffer }) => {
  try {
    parentPort!.postMessage(prepareGridBody(kind, new Uint8Array(bytes)));
  } catch (error) {
    // Not the client's fault (an ApiError is answered as one): the request answers 500, logged there.
    parentPort!.postMessage({ crash: (error as Error)?.stack ?? String(error) });
  }
});
