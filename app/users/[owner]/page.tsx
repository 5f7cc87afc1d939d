import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { getUserByUsername } from '@/lib/users';

export const dynamic = 'force-dynamic';

export default async function ProfilePage({ params }: { params: Promise<{ owner: string }> }) {
  const { owner } = await params;
  const user = await getUserByUsername(await getDb(), owner);
  if (!user) notFound();
  return (
    <main>
      <h1>{user.nickname || user.username}</h1>
      <p className="muted">~{user.username}</p>
      {user.bio && <p>{user.bio}</p>}
    </main>
  );
}
