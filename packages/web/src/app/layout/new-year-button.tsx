// The New Year easter egg in the top bar: on New Year's Day and the Lunar New Year a lantern offers
// fireworks; they play for 3 s and the page reloads 10 s after they stop, as the classic console does.
import { Button, Dropdown } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { NEW_YEAR_EFFECT } from './new-year';
import type { NewYear } from './new-year';
import type { FireworksShow, startFireworks as StartFireworks } from './fireworks';

// Drawn rather than emoji, which many systems (and headless browsers) lack fonts for.
function LanternIcon() {
  return (
    <span role="img" aria-hidden="true" className="anticon">
      <svg viewBox="0 0 24 24" width="1.2em" height="1.2em">
        <path d="M12 1v3" stroke="#b8860b" strokeWidth="1.5" />
        <rect x="8" y="3.5" width="8" height="2.5" rx="1" fill="#d4a017" />
        <ellipse cx="12" cy="12.5" rx="8" ry="6.5" fill="#e02424" />
        <path d="M12 6v13M8.5 6.8c-2 3.4-2 8 0 11.4M15.5 6.8c2 3.4 2 8 0 11.4" stroke="#9b1c1c" fill="none" />
        <rect x="8" y="18.5" width="8" height="2.5" rx="1" fill="#d4a017" />
        <path d="M11 21v2.5M13 21v2.5" stroke="#d4a017" strokeWidth="1.2" />
      </svg>
    </span>
  );
}

function BurstIcon() {
  const rays = Array.from({ length: 8 }, (_, i) => (i * Math.PI) / 4);
  const colours = ['#e02424', '#f59e0b', '#10b981', '#3b82f6'];
  return (
    <span role="img" aria-hidden="true" className="anticon">
      <svg viewBox="0 0 24 24" width="1.2em" height="1.2em">
        {rays.map((angle, i) => (
          <path
            key={angle}
            d={`M${12 + 3.5 * Math.cos(angle)} ${12 + 3.5 * Math.sin(angle)}L${12 + 10 * Math.cos(angle)} ${12 + 10 * Math.sin(angle)}`}
            stroke={colours[i % colours.length]}
            strokeWidth="2"
            strokeLinecap="round"
          />
        ))}
        <circle cx="12" cy="12" r="2" fill="#f59e0b" />
      </svg>
    </span>
  );
}

/** The show under way: its canvas once started, and the stop and reload timers. */
interface Show {
  fireworks: FireworksShow | null;
  timers: number[];
}

export function NewYearButton({ newYear }: { newYear: NewYear }) {
  const { t } = useTranslation();
  const show = useRef<Show | null>(null);

  // Leaving the layout ends the show; nothing plays or reloads behind another page.
  useEffect(
    () => () => {
      show.current?.timers.forEach((timer) => window.clearTimeout(timer));
      show.current?.fireworks?.stop();
      show.current = null;
    },
    [],
  );

  const light = async () => {
    if (show.current) return;
    const current: Show = { fireworks: null, timers: [] };
    show.current = current;
    // The canvas code loads only now: other days, and visitors who never press, do not pay for it.
    let startFireworks: typeof StartFireworks;
    try {
      ({ startFireworks } = await import('./fireworks'));
    } catch {
      // Offline or a new deployment: pressing again tries again.
      show.current = null;
      return;
    }
    if (show.current !== current) return;
    current.fireworks = startFireworks();
    current.timers.push(
      window.setTimeout(() => {
        current.fireworks?.stop();
        current.timers.push(window.setTimeout(() => window.location.reload(), NEW_YEAR_EFFECT.reloadAfterMs));
      }, NEW_YEAR_EFFECT.playMs),
    );
  };

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [{ key: 'fireworks', label: t('nav.newYearFireworks') }],
        onClick: () => void light(),
      }}
    >
      <Button
        type="text"
        aria-label={t('nav.newYear')}
        title={t('nav.newYear')}
        icon={newYear === 'lunar-new-year' ? <LanternIcon /> : <BurstIcon />}
      />
    </Dropdown>
  );
}
