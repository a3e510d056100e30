// The page builds its DOM from elements and text nodes only: nothing is
// ever parsed as HTML (the page's policy requires Trusted Types and allows
// none), so a name or a message from the server is always text.

type Attrs = Record<string, string | number | boolean | undefined | null>;
type Child = Node | string | number | null | undefined | false;

/** h makes an element with attributes (a false/null/undefined one is left
 * out; true sets it empty) and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, ...children);
  return el;
}

/** append adds children, strings as text. */
export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

/** replace empties el and appends the children. */
export function replace(el: Node, ...children: Child[]): void {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, ...children);
}

/** byId returns the element with the id, or throws naming it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error("the page has no #" + id);
  return el as T;
}

/** show shows exactly one of the sections. */
export function show(el: HTMLElement, visible: boolean): void {
  el.hidden = !visible;
}
