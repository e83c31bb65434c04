// Leaves the console for another site (a separate module so tests can watch it).
export function leaveTo(url: string): void {
  window.location.assign(url);
}
