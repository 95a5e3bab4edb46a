/**
 * Leaving the page (reload, closing the tab) during a turn closes its stream, and the server
 * cancels a turn whose client went away (docs/api.md). While any of this page's turns streams,
 * the browser asks first (`beforeunload`). Nothing is asked when no turn runs here. An Android
 * WebView may not show the prompt (docs/web-ui.md).
 */
let held = 0;

function askFirst(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Older Chromium (and so some WebViews) only ask when returnValue is set.
  event.returnValue = '';
}

/** Holds the prompt until the returned release is called (once; a second call does nothing). */
export function holdUnload(): () => void {
  if (typeof window === 'undefined') return () => {};
  if (held++ === 0) window.addEventListener('beforeunload', askFirst);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--held === 0) window.removeEventListener('beforeunload', askFirst);
  };
}
