// What every form a signed-in person submits goes through (workspace, settings, a plot page's owner
// actions): the caller resolved as on pages, the anti-forgery checks, and the core's errors turned into
// the message the form shows (the API's own words: same rules, same errors).
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { headers } from 'next/headers';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { fromOrigin, type Viewer } from '@/lib/core/accounts/auth';
import { storageRefusal } from '@/lib/core/accounts/storage';
import { ApiError, invalidMany } from '@/lib/core/errors';
import { parseFid } from '@/lib/core/records';
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
  } catch (thrown) {
    const e = storageRefusal(thrown) ?? thrown;
    if (e instanceof FormError) return { error: e.message };
    if (e instanceof ApiError) return { error: errorSentences(e) };
    throw e;
  }
}

/** A form's fields as a schema reads them: each field's text, a field sent more than once its texts in order (as checked boxes are). */
export function formFields(form: FormData): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const name of new Set(form.keys())) {
    const texts = form.getAll(name).filter((value): value is string => typeof value === 'string');
    if (texts.length) fields[name] = texts.length === 1 ? texts[0] : texts;
  }
  return fields;
}

/**
 * A form's action, schema first (as saas-starter's validatedAction, on runForm): the caller is checked
 * (session, anti-forgery), then the fields are read with `schema`, then `work` runs with what it read.
 * A refusal names the first field the schema refuses, in its words: the fields are checked in the
 * schema's order, as one after the other by hand.
 */
export function formAction<S extends z.ZodType>(
  schema: S,
  work: (input: z.output<S>, caller: FormCaller, form: FormData) => Promise<string | undefined>,
): (form: FormData) => Promise<FormState> {
  return (form) => runForm(form, async (caller) => work(readForm(schema, form), caller, form));
}

/** The form's fields read with `schema`, else the 400 of the first field it refuses (its words, all of them). */
export function readForm<S extends z.ZodType>(schema: S, form: FormData): z.output<S> {
  const read = schema.safeParse(formFields(form));
  if (read.success) return read.data;
  const first = read.error.issues[0].path[0];
  const issues = read.error.issues.filter((issue) => issue.path[0] === first);
  throw invalidMany(issues.map((issue) => ({ field: issue.path.map(String).join('.') || 'body', message: issue.message })));
}

/** A text field: one a form leaves out reads as empty. */
export const textField = <S extends z.ZodType>(schema: S) => z.preprocess((value) => value ?? '', schema);

/** A checkbox that says yes (`value="yes"`), ticked or not. */
export const checkbox = z.preprocess((value) => value === 'yes', z.boolean());

/** The form's file (`fid`, owner:n); anything else (left out too) is the 404 the API answers for a file that does not exist. */
export const fidField = z.unknown().transform((value, ctx) => {
  const fid = typeof value === 'string' ? parseFid(value) : null;
  if (!fid) ctx.addIssue({ code: 'custom', message: 'Not found.' });
  return fid ?? z.NEVER;
});
