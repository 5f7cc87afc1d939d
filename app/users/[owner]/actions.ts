'use server';
// "Load more" on a profile. Profiles have no list API to fetch from, so the next page comes from this
// action; the viewer is read from the session exactly as on the page, so only the owner gets their
// private and secret cards.
import { z } from 'zod';
import type { NextPage } from '@/components/load-more';
import { listUserPlots } from '@/lib/web/gallery';
import { pageContext } from '@/lib/web/page-context';
import { listQuerySchema } from '@/lib/core/plots';
import { getUserByUsername, usernameSchema } from '@/lib/core/users';

const inputSchema = z.object({ owner: usernameSchema, cursor: listQuerySchema.shape.cursor.unwrap() });

export async function moreUserPlots(owner: string, cursor: string): Promise<NextPage> {
  const input = inputSchema.parse({ owner, cursor });
  const { db, viewer, origin } = await pageContext();
  const user = await getUserByUsername(db, input.owner);
  if (!user) throw new Error('There is no such user.');
  const { cards, next } = await listUserPlots(db, viewer, user, { cursor: input.cursor }, origin);
  return { cards, next };
}
