// People and signing in: accounts, sessions, the links mailed or handed out (invitations, password
// resets, address confirmations), and whom a person blocked.
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './column-types';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    // sha256 of the API key: keys are random 144-bit strings, so a fast hash is enough and allows rotation.
    apiKeyHash: text('api_key_hash').notNull(),
    // When the person was last given their key (printed, or shown once on the settings page); null:
    // never (signed up on the web), so a first key replaces nothing anyone holds.
    apiKeyGivenAt: ts('api_key_given_at').defaultNow(),
    // argon2id (PHC string, lib/core/accounts/passwords.ts); null until the person sets a password.
    passwordHash: text('password_hash'),
    email: text('email').notNull().default(''),
    // When the address was shown to be the person's (lib/core/accounts/email-confirmations.ts); null: not yet,
    // and then it counts for nothing (no reset mail, no sign-in by it, no hold on the address).
    emailConfirmedAt: ts('email_confirmed_at'),
    nickname: text('nickname').notNull().default(''),
    bio: text('bio').notNull().default(''),
    website: text('website').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    // Mail about comments and shares (lib/core/files/notifications.ts), to a confirmed address; the person's setting.
    notifyByEmail: boolean('notify_by_email').notNull().default(true),
    // The per-owner file number counter (fids are owner:n), shared by plots, grids and folders.
    fileCounter: integer('file_counter').notNull().default(0),
    // What the person's files hold (the sum of their files' stored_bytes, trash included), kept by
    // triggers (migration person_storage) and bounded by STORAGE_PER_PERSON_MB (lib/core/accounts/storage.ts).
    storedBytes: bigint('stored_bytes', { mode: 'number' }).notNull().default(0),
    dateJoined: ts('date_joined').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    // One account per confirmed address (people sign in with it); the empty default is no address.
    // Unconfirmed ones may repeat: whoever types an address first does not hold it.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`).where(sql`${t.email} <> '' AND ${t.emailConfirmedAt} IS NOT NULL`),
    index('users_email_unconfirmed_idx').on(sql`lower(${t.email})`).where(sql`${t.email} <> '' AND ${t.emailConfirmedAt} IS NULL`),
  ],
);

/** Browser sign-in sessions: the cookie holds a random token, the table only its sha256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Sign-up invitations (`npm run user:invite`): the link holds a random token, the table only its sha256. */
export const invitations = pgTable('invitations', {
  tokenHash: text('token_hash').primaryKey(),
  email: text('email').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  // Set once, by the sign-up that used it (the same transaction that made the account).
  usedAt: ts('used_at'),
  usedBy: integer('used_by').references(() => users.id, { onDelete: 'set null' }),
});

/** "Forgot password?" links (lib/core/accounts/password-resets.ts): the link holds a random token, the table only its sha256. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    // Set once, by the reset that used it (the same transaction that set the password).
    usedAt: ts('used_at'),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/** Address confirmation links (lib/core/accounts/email-confirmations.ts): the link holds a random token, the table only its sha256. */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // The address the link was sent to: it confirms that one only.
    email: text('email').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('email_confirmations_user_idx').on(t.userId)],
);

/**
 * Whom a person blocked (lib/core/accounts/blocks.ts): shares from them are refused, and their shares to the
 * person went when the block was made.
 */
export const blocks = pgTable(
  'blocks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: integer('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.blockedId] }), check('blocks_not_self_check', sql`${t.userId} <> ${t.blockedId}`)],
);
