// What a reader asked for before signing in ("Save this search", "Watch this tender"), carried through sign-in in
// the address the emailed link returns to (`?then=save`), so the page finishes it once the reader is back signed in,
// in whichever browser the link was opened.

export const THEN_SAVE = 'then=save';
export const THEN_WATCH = 'then=watch';

/**
 * True when this page's address asks to finish `action` ("save" or "watch"); the request is taken out of the
 * address (history.replaceState) so a reload or a shared link does not repeat it.
 */
export function takePendingAction(action: 'save' | 'watch'): boolean {
  const url = new URL(location.href);
  if (url.searchParams.get('then') !== action) return false;
  url.searchParams.delete('then');
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return true;
}
