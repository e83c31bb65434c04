import { useEffect, useState } from 'react';

/** Drawers are `width` wide, and full width on screens up to 600 px (spec part 1 §9). */
export function useDrawerSize(width = 600): number | string {
  const narrow = () => typeof window !== 'undefined' && window.innerWidth <= 600;
  const [isNarrow, setNarrow] = useState(narrow);
  useEffect(() => {
    const onResize = () => setNarrow(narrow());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return isNarrow ? '100%' : width;
}
