// The first paint the server may send inside index.html (docs/first-load.md): the cookie that tells
// it the console's language and theme, the status it rendered with, and whether the page holds one
// that matches what this browser has stored (the server's guard script checks that before it is shown).
import { LOOK_COOKIE, lookValue } from '@sluice/shared';
import { isRecord } from './storage';

/** Keeps the cookie in step with the console's language and theme, for the next cold load. */
export function rememberLook(language: string, theme: string): void {
  try {
    document.cookie = `${LOOK_COOKIE}=${lookValue(language, theme)}; path=/; max-age=31536000; samesite=lax`;
  } catch {
    // Cookies off: the server sends the page without a first paint.
  }
}

/** The page holds a first paint made for this browser's stored language, theme and user. */
export function holdsFirstPaint(root: HTMLElement): boolean {
  const html = document.documentElement;
  return (
    html.dataset.firstPaint !== undefined &&
    !html.classList.contains('first-paint-stale') &&
    root.hasChildNodes()
  );
}

/** The site status the server rendered the first paint with (always current), if the page has it. */
export function firstPaintStatus(): Record<string, unknown> | null {
  const element = typeof document === 'undefined' ? null : document.getElementById('first-paint-status');
  if (!element?.textContent) return null;
  try {
    const value: unknown = JSON.parse(element.textContent);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** Text fields of the page whose text differs from what the server rendered. */
const typedFields = (root: HTMLElement): Array<HTMLInputElement | HTMLTextAreaElement> =>
  [...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')].filter(
    (field) =>
      (field instanceof HTMLTextAreaElement ||
        !['checkbox', 'radio', 'file', 'hidden'].includes(field.type)) &&
      field.value !== field.defaultValue,
  );

/** React has taken the element over: it keeps its props on it (the mark React's own devtools read). */
const takenOver = (element: Element): boolean =>
  Object.keys(element).some((key) => key.startsWith('__reactProps$'));

/** Tells React about text it did not see typed: it sees the server's value, then the text, as typing. */
function retype(field: HTMLInputElement | HTMLTextAreaElement, typed: string): void {
  const setValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set;
  if (!setValue) return;
  field.value = field.defaultValue;
  setValue.call(field, typed);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * What the visitor typed (or the browser filled in) before the console took the first paint over is on
 * the page but not in the console's state: React keeps the state the server rendered with, and a
 * sign-in would send nothing. Each such field is retyped once React holds it (parts of a page are
 * taken over one after another); `done` runs when none is left, or after five seconds.
 */
export function keepTypedText(root: HTMLElement, done: () => void): void {
  const retyped = new WeakSet<Element>();
  const until = performance.now() + 5000;
  const step = () => {
    let waiting = false;
    // Read first: each retyped field re-renders its page, which sets the other fields to its state.
    const typed = typedFields(root).map((field) => [field, field.value] as const);
    for (const [field, text] of typed) {
      if (retyped.has(field)) continue;
      if (!takenOver(field)) {
        waiting = true;
        continue;
      }
      retyped.add(field);
      retype(field, text);
    }
    if (waiting && performance.now() < until) requestAnimationFrame(step);
    else done();
  };
  step();
}
