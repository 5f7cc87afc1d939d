// The database's tables, one file per concept (drizzle-kit reads them all through this index:
// drizzle.config.ts); the SQL functions and triggers live in the migrations.
export * from './accounts';
export * from './files';
export * from './plots';
export * from './grids';
export * from './documents';
export * from './versions';
export * from './images';
export * from './processes';
export * from './notifications';
export * from './streams';
