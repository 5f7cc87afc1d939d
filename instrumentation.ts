// Runs once when the server starts: open the database, apply migrations, seed the demo on first start.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { getDatabase } = await import('./db/client');
    try {
      const database = await getDatabase();
      console.log(`Database ready (${database.driver}).`);
    } catch (error) {
      // The service still starts; requests answer 503 until the database is reachable.
      console.error('Database not ready at start:', (error as Error).message);
    }
  }
}
