// A file's name and a folder path as written, pure (no database): also read off the event loop, in
// the body worker that checks large grid bodies (lib/http/grid-bodies.ts).
import { z } from 'zod';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what a name may not hold
const noControl = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

export const filenameSchema = z
  .string()
  .trim()
  .min(1, 'may not be blank')
  .max(255, 'at most 255 characters')
  .refine((s) => !s.includes('/'), 'may not contain "/"')
  .refine(noControl, 'may not contain control characters')
  .meta({ description: "the file's name: 1..255 characters, no `/`, unique among the owner's live files in its folder" });

export const pathSchema = z
  .string()
  .max(1024, 'at most 1024 characters')
  .refine(noControl, 'may not contain control characters')
  .transform((s) => s.split('/').filter(Boolean))
  .refine((parts) => parts.every((p) => p.length <= 255 && p !== '.' && p !== '..'), 'invalid folder name')
  .refine((parts) => parts.length <= 20, 'at most 20 levels')
  .meta({ description: 'a path of folder names, `a/b` (at most 20 levels)' });
