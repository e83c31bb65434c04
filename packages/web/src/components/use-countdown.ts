import { useCallback, useEffect, useRef, useState } from 'react';

/** Seconds left before an action may repeat (e.g. the 30-second email-code resend lock). */
export function useCountdown(): [secondsLeft: number, start: (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  const timer = useRef<number | undefined>(undefined);

  const start = useCallback((seconds: number) => {
    window.clearInterval(timer.current);
    setLeft(seconds);
    timer.current = window.setInterval(() => {
      setLeft((prev) => {
        if (prev <= 1) window.clearInterval(timer.current);
        return Math.max(0, prev - 1);
      });
    }, 1000);
  }, []);

  useEffect(() => () => window.clearInterval(timer.current), []);
  return [left, start];
}
