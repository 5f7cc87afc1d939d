'use client';
// Nothing is lost without asking: while an editor holds unsaved changes, every way off the page asks
// first (the app's own links and forms, caught before Next's router sees them; a reload, a typed
// address or closing the tab, through the browser's own leave-page dialog), and Ctrl+S (Cmd+S) saves.
import { type RefObject, useCallback, useEffect, useRef } from 'react';

export const LEAVE_QUESTION = 'You have unsaved changes. Leave this page and lose them?';

/** A click that follows a link to another page in this tab (not a new tab, a download or a #fragment here). */
function leavingLink(e: MouseEvent): boolean {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return false;
  const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
  if (!(a instanceof HTMLAnchorElement) || a.hasAttribute('download') || (a.target && a.target !== '_self')) return false;
  const to = new URL(a.href, window.location.href);
  const here = window.location;
  return !(to.origin === here.origin && to.pathname === here.pathname && to.search === here.search && to.hash !== '');
}

/**
 * Asks before leaving while `dirty`: links and form submissions outside `root` (the editor's own forms
 * are its work), and the browser's unload. A person who says no stays with their changes. Answers
 * `release`, called once a save has kept everything and the editor itself moves on.
 */
export function useUnsavedChanges(dirty: boolean, root?: RefObject<HTMLElement | null>): () => void {
  const released = useRef(false);
  useEffect(() => {
    if (!dirty) return;
    released.current = false;
    const stay = (e: Event) => {
      if (released.current || window.confirm(LEAVE_QUESTION)) return;
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    const click = (e: MouseEvent) => {
      if (leavingLink(e)) stay(e);
    };
    const submit = (e: SubmitEvent) => {
      if (!(e.target instanceof HTMLFormElement) || root?.current?.contains(e.target)) return;
      stay(e);
    };
    const unload = (e: BeforeUnloadEvent) => {
      if (released.current) return;
      e.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      e.returnValue = '';
    };
    document.addEventListener('click', click, true);
    document.addEventListener('submit', submit, true);
    window.addEventListener('beforeunload', unload);
    return () => {
      document.removeEventListener('click', click, true);
      document.removeEventListener('submit', submit, true);
      window.removeEventListener('beforeunload', unload);
    };
  }, [dirty, root]);
  return useCallback(() => {
    released.current = true;
  }, []);
}

/** Ctrl+S (Cmd+S on a Mac) calls `save` instead of the browser's "save page as". */
export function useSaveShortcut(save: () => void): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    const key = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        latest.current();
      }
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, []);
}
