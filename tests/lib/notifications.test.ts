// Notifications (lib/core/files/notifications.ts) on both databases: who is told of a comment and of a
// share (never the actor, never someone who cannot read the file or blocked the actor), what the list
// and the header's count show as access changes, read and unread, the per-person bound, and the mail
// outbox delivered to a real SMTP server (confirmed addresses of people who take it only).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { blockUser } from '@/lib/core/accounts/blocks';
import { addCollaborator, removeCollaborator } from '@/lib/core/files/collaborators';
import {
  countUnreadNotifications,
  deliverNotificationMail,
  listNotifications,
  MAILS_PER_PERSON_HOUR,
  markAllNotificationsRead,
  NOTIFICATIONS_PER_PERSON,
  openNotification,
  setNotifyByEmail,
} from '@/lib/core/files/notifications';
import { createComment } from '@/lib/core/plots/comments';
import { createPlot } from '@/lib/core/plots/plots';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { parseFid, type Fid } from '@/lib/core/records';
import { startSmtpServer } from '../support/smtp';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { ORIGIN, people } from './_helpers';

describe.each(SQL_DRIVER)('notifications (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  let carol: Viewer;
  let dave: Viewer;
  let erin: Viewer;

  const plot = async (owner: Viewer, title: string, worldReadable = true) =>
    parseFid(
      JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'bar' }] }, world_readable: worldReadable, filename: title }, ORIGIN)).file.fid,
    )!;
  const comment = (who: Viewer, fid: Fid, text = 'nice') => createComment(db, who, fid, { text });
  const told = async (who: Viewer) => (await listNotifications(db, who.id)).map((n) => `${n.kind} ${n.actor} ${n.name}${n.unread ? '' : ' (read)'}`);
  const stored = async () => Number((await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM notifications`))[0].n);

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob, carol, dave, erin } = await people(db, 'carol', 'dave', 'erin'));
  });

  it('a comment tells the owner and earlier commenters, never the one who wrote it', async () => {
    const fid = await plot(alice, 'Rain');
    await comment(alice, fid);
    expect(await stored()).toBe(0);
    await comment(bob, fid);
    expect(await told(alice)).toEqual(['comment bob Rain']);
    expect(await told(bob)).toEqual([]);
    await comment(carol, fid);
    expect(await told(alice)).toEqual(['comment carol Rain', 'comment bob Rain']);
    expect(await told(bob)).toEqual(['reply carol Rain']);
    expect(await told(carol)).toEqual([]);
    expect(await countUnreadNotifications(db, alice.id)).toBe(2);
  });

  it('nothing for someone who cannot read the plot, and what they can no longer read is not shown', async () => {
    const fid = await plot(alice, 'Secret lake');
    await comment(bob, fid);
    await updateFileDetail(db, alice, fid, { world_readable: false }, ORIGIN);
    const before = await stored();
    await comment(alice, fid, 'just for me now');
    expect(await stored()).toBe(before);
    expect(await told(bob)).not.toContain('reply alice Secret lake');
    // alice's own notification of bob's comment stays hers; carol, shown a plot later made private, no longer sees it.
    const open = await plot(alice, 'Open sea');
    await comment(carol, open);
    await comment(dave, open);
    expect(await told(carol)).toContain('reply dave Open sea');
    const count = await countUnreadNotifications(db, carol.id);
    await updateFileDetail(db, alice, open, { world_readable: false }, ORIGIN);
    expect(await told(carol)).not.toContain('reply dave Open sea');
    expect(await countUnreadNotifications(db, carol.id)).toBe(count - 1);
  });

  it('a share tells the person once; one who blocked the owner is told nothing', async () => {
    const fid = await plot(alice, 'Shared chart', false);
    await addCollaborator(db, alice, fid, { username: 'dave', permission: 'write' });
    await addCollaborator(db, alice, fid, { username: 'dave', permission: 'read' });
    const list = await listNotifications(db, dave.id);
    expect(list.filter((n) => n.kind === 'share').map((n) => [n.actor, n.name, n.permission])).toEqual([['alice', 'Shared chart', 'write']]);
    await blockUser(db, carol, 'bob');
    const theirs = await plot(bob, 'From bob');
    await comment(carol, theirs);
    const before = await told(carol);
    await comment(bob, theirs, 'answer');
    expect(await told(carol)).toEqual(before);
  });

  it('read and unread: opening one, then all', async () => {
    await markAllNotificationsRead(db, alice.id);
    const fid = await plot(bob, 'Bob’s bars');
    await addCollaborator(db, bob, fid, { username: 'alice', permission: 'read' });
    await comment(carol, await plot(alice, 'Hers'));
    expect(await countUnreadNotifications(db, alice.id)).toBe(2);
    const [newest, older] = await listNotifications(db, alice.id);
    expect(await openNotification(db, bob.id, newest.id)).toBeNull();
    expect(await openNotification(db, alice.id, older.id)).toEqual({ owner: 'bob', n: fid.n, filetype: 'plot' });
    expect(await countUnreadNotifications(db, alice.id)).toBe(1);
    expect((await listNotifications(db, alice.id)).slice(0, 2).map((n) => n.unread)).toEqual([true, false]);
    expect(await markAllNotificationsRead(db, alice.id)).toBe(1);
    expect(await countUnreadNotifications(db, alice.id)).toBe(0);
  });

  it(`keeps a person's newest ${NOTIFICATIONS_PER_PERSON}`, async () => {
    const fid = await plot(carol, 'Many');
    const target = (await queryRows<{ id: number }>(db, sql`SELECT id FROM files WHERE owner_id = ${carol.id} AND n = ${fid.n}`))[0].id;
    await db.execute(sql`DELETE FROM notifications WHERE user_id = ${dave.id}`);
    await db.execute(sql`INSERT INTO notifications (user_id, actor_id, kind, file_id, created_at)
      SELECT ${dave.id}, ${carol.id}, 'comment', ${target}, now() - make_interval(mins => i) FROM generate_series(1, ${NOTIFICATIONS_PER_PERSON}) i`);
    await comment(carol, await plot(dave, 'Newest'));
    const list = await listNotifications(db, dave.id);
    expect(list).toHaveLength(NOTIFICATIONS_PER_PERSON);
    expect(list[0].name).toBe('Newest');
    const oldest = await queryRows<{ m: number }>(
      db,
      sql`SELECT max(extract(epoch FROM now() - created_at))::int / 60 AS m FROM notifications WHERE user_id = ${dave.id}`,
    );
    expect(Number(oldest[0].m)).toBe(NOTIFICATIONS_PER_PERSON - 1);
  });

  describe('mail', () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    const env = { SMTP_URL: process.env.SMTP_URL, PUBLIC_URL: process.env.PUBLIC_URL };
    beforeAll(async () => {
      smtp = await startSmtpServer();
      process.env.SMTP_URL = smtp.url;
      process.env.PUBLIC_URL = 'https://plots.example';
    });
    afterAll(async () => {
      for (const [key, value] of Object.entries(env)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      await smtp.close();
    });

    it('goes to confirmed addresses of people who take it, once', async () => {
      await db.execute(sql`UPDATE users SET email = username || '@mail.test', email_confirmed_at = now() WHERE username IN ('alice', 'bob')`);
      await db.execute(sql`UPDATE users SET email = 'carol@mail.test', email_confirmed_at = NULL WHERE username = 'carol'`);
      await setNotifyByEmail(db, bob.id, false);
      const fid = await plot(alice, 'Mailed');
      await comment(carol, fid);
      await comment(bob, fid);
      await comment(dave, fid);
      // alice (3 comments) takes mail; bob turned it off; carol's address is unconfirmed.
      expect(await deliverNotificationMail(db)).toBe(3);
      expect(await deliverNotificationMail(db)).toBe(0);
      expect(smtp.mails.map((m) => m.to.join())).toEqual(['alice@mail.test', 'alice@mail.test', 'alice@mail.test']);
      const mail = await smtp.mailTo('alice@mail.test');
      expect(mail.text).toContain('carol commented on your plot ');
      expect(mail.text).toContain(`https://plots.example/~alice/${fid.n}/`);
      expect(mail.text).toContain('https://plots.example/settings');
    });

    it(`a loop of shares is one notification while unread, and past ${MAILS_PER_PERSON_HOUR} an hour nothing more is mailed`, async () => {
      await db.execute(sql`UPDATE users SET email = 'erin@mail.test', email_confirmed_at = now() WHERE username = 'erin'`);
      await deliverNotificationMail(db);
      const sent = smtp.mails.length;
      const looped = await plot(bob, 'Looped', false);
      for (const permission of ['read', 'write', 'read'] as const) {
        await addCollaborator(db, bob, looped, { username: 'erin', permission });
        await removeCollaborator(db, bob, looped, 'erin');
      }
      await addCollaborator(db, bob, looped, { username: 'erin', permission: 'write' });
      expect((await listNotifications(db, erin.id)).filter((n) => n.name === 'Looped').map((n) => n.permission)).toEqual(['write']);
      for (let i = 0; i < MAILS_PER_PERSON_HOUR + 5; i++)
        await addCollaborator(db, bob, await plot(bob, `Flood ${i}`, false), { username: 'erin', permission: 'read' });
      const listed = (await listNotifications(db, erin.id)).filter((n) => n.name.startsWith('Flood')).length;
      expect(listed).toBe(MAILS_PER_PERSON_HOUR + 5);
      await deliverNotificationMail(db);
      const toErin = smtp.mails.slice(sent).filter((m) => m.to.join() === 'erin@mail.test');
      expect(toErin.length).toBe(MAILS_PER_PERSON_HOUR);
    });

    it('a mail server that is down fails nothing: the comment is made and listed, the mail dropped (logged)', async () => {
      const fid = await plot(alice, 'Server down');
      await comment(dave, fid);
      const down = { smtpUrl: 'smtp://127.0.0.1:1', origin: 'https://plots.example', from: 'Plot Files <no-reply@plots.example>' };
      expect(await deliverNotificationMail(db, down)).toBe(0);
      expect((await told(alice))[0]).toBe('comment dave Server down');
      expect(await deliverNotificationMail(db)).toBe(0);
    });
  });
});
