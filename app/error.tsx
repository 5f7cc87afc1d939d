'use client';
// Errors show what happened in plain words, never a stack trace.
export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <main className="narrow center">
      <h1>Something went wrong</h1>
      <p className="muted">The page could not be shown just now. The database may be busy or restarting.</p>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>
      </p>
    </main>
  );
}
