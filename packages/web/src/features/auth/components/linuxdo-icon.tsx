// The LinuxDO mark (a disc in three bands), sized and coloured like antd's icons so it sits in a
// button the way the GitHub and WeChat icons do.
import { useId } from 'react';

export function LinuxDoIcon() {
  const clip = useId();
  return (
    <span role="img" aria-hidden="true" className="anticon">
      <svg viewBox="0 0 24 24" width="1em" height="1em">
        <clipPath id={clip}>
          <circle cx="12" cy="12" r="10" />
        </clipPath>
        <g clipPath={`url(#${clip})`}>
          <rect x="2" y="2" width="20" height="7" fill="#1c1c1e" />
          <rect x="2" y="9" width="20" height="6" fill="#f0f0f0" />
          <rect x="2" y="15" width="20" height="7" fill="#ffb003" />
        </g>
        <circle
          cx="12"
          cy="12"
          r="10"
          fill="none"
          stroke="currentColor"
          strokeOpacity="0.25"
          strokeWidth="1"
        />
      </svg>
    </span>
  );
}
