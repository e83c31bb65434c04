// Canvas fireworks for the New Year easter egg: rockets rise from the bottom of the window and burst
// into sparks that fall and fade. Loaded only when a visitor lights them.

export interface FireworksShow {
  /** Ends the show and removes its canvas. */
  stop(): void;
}

interface Rocket {
  x: number;
  y: number;
  vx: number;
  vy: number;
  hue: number;
}

interface Spark {
  x: number;
  y: number;
  vx: number;
  vy: number;
  hue: number;
  age: number;
  life: number;
}

// The whole show lasts 3 s, so rockets climb fast (under a second) and the first bursts come at once.
const ROCKET_GRAVITY = 1400; // px/s²
const SPARK_GRAVITY = 160; // px/s²
const LAUNCH_EVERY_MS = 220;
const OPENING_BURSTS = 3;
const SPARKS_PER_BURST = 90;
const MAX_FRAME_SECONDS = 0.05;

const random = (min: number, max: number) => min + Math.random() * (max - min);

function launch(width: number, height: number): Rocket {
  // Fast enough to burst somewhere in the upper half of the window.
  return {
    x: random(width * 0.15, width * 0.85),
    y: height,
    vx: random(-40, 40),
    vy: -Math.sqrt(2 * ROCKET_GRAVITY * random(height * 0.45, height * 0.8)),
    hue: random(0, 360),
  };
}

function burst(rocket: Rocket): Spark[] {
  return Array.from({ length: SPARKS_PER_BURST }, () => {
    const angle = random(0, Math.PI * 2);
    const speed = random(80, 320);
    return {
      x: rocket.x,
      y: rocket.y,
      vx: Math.cos(angle) * speed,
      vy: Math.sin(angle) * speed,
      hue: rocket.hue + random(-20, 20),
      age: 0,
      life: random(0.9, 1.5),
    };
  });
}

/** Starts fireworks over the whole window, above the page and letting clicks through. */
export function startFireworks(host: HTMLElement = document.body): FireworksShow {
  const canvas = document.createElement('canvas');
  canvas.className = 'new-year-fireworks';
  canvas.setAttribute('aria-hidden', 'true');
  Object.assign(canvas.style, {
    position: 'fixed',
    inset: '0',
    width: '100vw',
    height: '100vh',
    pointerEvents: 'none',
    zIndex: '2000',
  });
  host.appendChild(canvas);
  const context = canvas.getContext('2d');

  let width = 0;
  let height = 0;
  const resize = () => {
    const ratio = window.devicePixelRatio || 1;
    width = window.innerWidth;
    height = window.innerHeight;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    context?.setTransform(ratio, 0, 0, ratio, 0, 0);
  };
  resize();
  window.addEventListener('resize', resize);

  let rockets: Rocket[] = [];
  // A few bursts straight away, high in the window, so the show starts with the click.
  let sparks: Spark[] = Array.from({ length: OPENING_BURSTS }, (_, i) =>
    burst({
      x: (width * (i + 1)) / (OPENING_BURSTS + 1),
      y: random(height * 0.2, height * 0.4),
      vx: 0,
      vy: 0,
      hue: random(0, 360),
    }),
  ).flat();
  let sinceLaunch = LAUNCH_EVERY_MS;
  let last: number | null = null;
  let frame = 0;

  const step = (now: number) => {
    const seconds = last === null ? 0 : Math.min((now - last) / 1000, MAX_FRAME_SECONDS);
    last = now;
    sinceLaunch += seconds * 1000;
    if (sinceLaunch >= LAUNCH_EVERY_MS) {
      sinceLaunch = 0;
      rockets.push(launch(width, height));
    }
    const stillRising: Rocket[] = [];
    for (const rocket of rockets) {
      rocket.x += rocket.vx * seconds;
      rocket.y += rocket.vy * seconds;
      rocket.vy += ROCKET_GRAVITY * seconds;
      if (rocket.vy >= 0) sparks.push(...burst(rocket));
      else stillRising.push(rocket);
    }
    rockets = stillRising;
    sparks = sparks.filter((spark) => {
      spark.age += seconds;
      spark.x += spark.vx * seconds;
      spark.y += spark.vy * seconds;
      spark.vy += SPARK_GRAVITY * seconds;
      spark.vx *= 1 - 0.8 * seconds;
      return spark.age < spark.life;
    });
    if (context) draw(context);
    frame = window.requestAnimationFrame(step);
  };

  const draw = (ctx: CanvasRenderingContext2D) => {
    // Fade what was drawn before instead of clearing it, which leaves short trails; the canvas stays
    // transparent so the page shows through.
    ctx.globalCompositeOperation = 'destination-out';
    ctx.fillStyle = 'rgba(0, 0, 0, 0.3)';
    ctx.fillRect(0, 0, width, height);
    ctx.globalCompositeOperation = 'source-over';
    for (const rocket of rockets) {
      ctx.fillStyle = `hsl(${rocket.hue}, 100%, 65%)`;
      ctx.fillRect(rocket.x - 2, rocket.y - 2, 4, 4);
    }
    for (const spark of sparks) {
      const fade = 1 - spark.age / spark.life;
      ctx.fillStyle = `hsla(${spark.hue}, 100%, 55%, ${fade})`;
      ctx.beginPath();
      ctx.arc(spark.x, spark.y, 1.5 + 2 * fade, 0, Math.PI * 2);
      ctx.fill();
    }
  };

  frame = window.requestAnimationFrame(step);
  return {
    stop() {
      window.cancelAnimationFrame(frame);
      window.removeEventListener('resize', resize);
      canvas.remove();
    },
  };
}
