// PUBLIC_URL for the operator commands that print links: they have no request to take the site's
// address from. Read as the app reads it (lib/http/request/origin.ts).
import { CommandError } from './cli';

export function publicUrl(usage: string): string {
  const configured = process.env.PUBLIC_URL;
  const need = `PUBLIC_URL is needed to print the links: set it to the address people open this site at.\nUsage: ${usage}`;
  if (!configured) throw new CommandError(need);
  try {
    const url = new URL(configured);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    throw new CommandError(`PUBLIC_URL (${configured}) is not an http:// or https:// address. ${need}`);
  }
  return configured.replace(/\/+$/, '');
}
