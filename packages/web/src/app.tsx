// Minimal console page until the full console lands: shows the site name and signs in.
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { MSG } from '@sluice/shared';

interface Status {
  system_name: string;
}

export function App() {
  const [status, setStatus] = useState<Status | null>(null);
  const [message, setMessage] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  useEffect(() => {
    fetch('/api/status')
      .then((r) => r.json() as Promise<{ data: Status }>)
      .then((body) => setStatus(body.data))
      .catch(() => setMessage('cannot connect to the server'));
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!username || !password) {
      setMessage(MSG.enterUsernamePassword);
      return;
    }
    const res = await fetch('/api/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = (await res.json()) as { success: boolean; message: string; data?: { username: string } };
    setMessage(body.success ? `Signed in as ${body.data?.username ?? username}` : body.message);
  };

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 360, margin: '10vh auto' }}>
      <h1>{status?.system_name ?? 'Sluice'}</h1>
      <form onSubmit={submit}>
        <input
          aria-label="username"
          placeholder="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <input
          aria-label="password"
          placeholder="password"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit">Log in</button>
      </form>
      <p role="status">{message}</p>
    </main>
  );
}
