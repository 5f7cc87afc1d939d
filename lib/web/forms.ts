// What every form a signed-in person submits goes through (workspace, settings, a plot page's owner
// actions): the caller resolved as on pages, the anti-forgery checks, and the core's errors turned into
// the message the form shows (the API's own words: same rules, same errors).
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { headers } from 'next/headers';
import type { Db } from '@/db/client';
import { fromOrigin, type Viewer } from '@/lib/core/accounts/auth';
import { ApiError } from '@/lib/core/errors';
import { pageContext } from './page-context';

/** What a form's server action returns to the page (`useActionState`), with or without JavaScript. */
export interface FormState {
  error?: string;
  /** What was done, for a status line ("Renamed to …"). */
  done?: string;
}

export interface FormCaller {
  db: Db;
  viewer: Viewer;
  origin: string;
}

/** Thrown by `formCaller` and the form actions: shown as the form's error, never a 500. */
export class FormError extends Error {}

/**
 * The signed-in person submitting `form`, once the request is shown to come from one of our pages:
 * the Origin (else Referer) is ours (Next checks that too) and the form carries the session's
 * anti-forgery token. Anything else is refused before any work is done.
 */
export async function formCaller(form: FormData): Promise<FormCaller> {
  const ctx = await pageContext();
  if (!ctx.viewer || !ctx.csrf) throw new FormError('Your session has ended; sign in again.');
  const given = Buffer.from(String(form.get('csrf') ?? ''));
  const expected = Buffer.from(ctx.csrf);
  const tokenOk = given.length === expected.length && timingSafeEqual(given, expected);
  if (!tokenOk || !fromOrigin(await headers(), ctx.origin))
    throw new FormError('This form has expired or came from another site; reload the page and try again.');
  return { db: ctx.db, viewer: ctx.viewer, origin: ctx.origin };
}

/**
 * The API's error messages as a person reads them on a page: without the field or JSON path they
 * begin with for clients ("filename: Sorry, ..." reads "Sorry, ..."; the form shows it at the field),
 * each a sentence.
 */
export function errorSentences(error: ApiError): string {
  return error.errors
    .map(({ message, field, path }) => {
      const place = path ?? field;
      const text = place && message.startsWith(`${place}: `) ? message.slice(place.length + 2) : message;
      const sentence = text.charAt(0).toUpperCase() + text.slice(1);
      return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
    })
    .join(' ');
}

/**
 * Runs a form's work as the signed-in caller and reports the outcome: the API's error messages for
 * what the core refuses. Anything else (a bug, or Next's redirect and notFound signals) propagates.
 */
export async function runForm(form: FormData, work: (caller: FormCaller) => Promise<string | undefined>): Promise<FormState> {
  try {
    const done = await work(await formCaller(form));
    return done ? { done } : {};
  } catch (e) {
    if (e instanceof FormError) return { error: e.message };
    if (e instanceof ApiError) return { error: errorSentences(e) };
    throw e;
  }
}
