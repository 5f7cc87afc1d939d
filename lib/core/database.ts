// The app's database, for lib/web: pages and forms reach db/ for its types only, so their connection,
// like their queries, comes through core.
export { getDb } from '@/db/client';
