'use client';
// A notice after an action ("Renamed.", "Sharing changed."): it says what the last action did, so it goes
// when the next one starts (any form on the page submitted). Without JavaScript the next page replaces
// it. Each server render gives it a fresh key, so the next action's notice shows even when it reads the same.
import { useEffect, useState, type ReactNode } from 'react';

export function Notice({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(true);
  useEffect(() => {
    const hide = () => setShown(false);
    document.addEventListener('submit', hide, true);
    return () => document.removeEventListener('submit', hide, true);
  }, []);
  if (!shown) return null;
  return (
    <p className="notice" role="status">
      {children}
    </p>
  );
}
