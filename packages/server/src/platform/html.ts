// Text written into HTML (mail bodies, the console's first paints): every character that could end a
// text node or an attribute value becomes a character reference.
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
