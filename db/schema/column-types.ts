// Column types the tables share: timestamps with time zone to the microsecond, and the two PostgreSQL
// types drizzle has no builder for.
import { customType, timestamp } from 'drizzle-orm/pg-core';

export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 6 });

export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const tsvector = customType<{ data: string; driverData: string }>({ dataType: () => 'tsvector' });
