import type { AppRoute } from '../../app/route-types';
import { loadSections } from '../../i18n';

export const pricingRoutes: AppRoute[] = [
  {
    path: '/pricing',
    access: 'public',
    // Public pages do not get the feature texts from the router; this one needs its own.
    page: () => Promise.all([import('./pricing-page'), loadSections()]).then(([m]) => m.PricingPage),
  },
];
