// The other tab's cards: the site's name, look and page texts.
import type { CardDesc } from './fields';

export const OTHER_CARDS: CardDesc[] = [
  { key: 'notice', fields: [{ key: 'Notice', kind: 'textarea', rows: 4, preview: 'markdown' }] },
  {
    key: 'site',
    fields: [
      { key: 'SystemName', kind: 'input' },
      { key: 'Logo', kind: 'input' },
      { key: 'Footer', kind: 'textarea', rows: 3, preview: 'html' },
    ],
  },
  {
    key: 'content',
    fields: [
      { key: 'HomePageContent', kind: 'textarea', rows: 6, preview: 'markdown' },
      { key: 'About', kind: 'textarea', rows: 6, preview: 'markdown' },
    ],
  },
];
