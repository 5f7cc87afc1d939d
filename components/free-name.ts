// A name no file of the signed-in person's top level has yet, asked of the API as a client would
// (`GET /v2/files/lookup?exists=true`): `sales`, else `sales (2)`, `sales (3)`… A new chart named
// after its title and an import whose name is taken are numbered instead of refused. The create can
// still meet a name taken meanwhile; its caller asks again then.
import { numberedName } from '@/lib/shared/names';
import { callApi } from './api-client';

/** Names tried before the base itself is given back (the create then says what is wrong). */
const TRIES = 50;

export async function freeName(base: string): Promise<string> {
  for (let i = 1; i <= TRIES; i++) {
    const name = numberedName(base, i);
    const answer = await callApi<{ exists?: boolean }>(`/v2/files/lookup?${new URLSearchParams({ path: name, exists: 'true' })}`);
    if (!answer.ok || answer.body?.exists !== true) return name;
  }
  return base;
}

/** True when an API refusal is only that the name is taken (worth a fresh free name and one more try). */
export const nameTaken = (errors: { field: string | null; message: string }[]) =>
  errors.length === 1 && errors[0].field === 'filename' && /already exists/.test(errors[0].message);
