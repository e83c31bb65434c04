// Which address a chat link opens, and how the key and server address are filled in.
import { describe, expect, it } from 'vitest';
import { chatTemplate, fillChatLink, serverAddress } from './chat-link';

const chats: Array<Record<string, string>> = [
  { 'Chat A': 'https://a.example/?key={key}' },
  { 'Chat B': 'https://b.example/#/{key}' },
];
const config = {
  chats,
  chat_link: 'https://one.example/?settings={"key":"{key}","url":"{address}"}',
  chat_link2: 'https://two.example/?k={key}',
};

describe('chat link templates', () => {
  it('picks the id-th configured chat, chat_link without an id, chat_link2 for /chat2link', () => {
    expect(chatTemplate(config, { id: '1' })).toEqual({ ok: true, template: 'https://b.example/#/{key}' });
    expect(chatTemplate(config, {})).toEqual({ ok: true, template: config.chat_link });
    expect(chatTemplate(config, 'link2')).toEqual({ ok: true, template: config.chat_link2 });
  });

  it('names the configuration problem', () => {
    expect(chatTemplate(config, { id: '2' })).toEqual({ ok: false, problem: 'configError' });
    expect(chatTemplate(config, { id: 'x' })).toEqual({ ok: false, problem: 'configError' });
    expect(chatTemplate({ ...config, chats: [] }, { id: '0' })).toEqual({
      ok: false,
      problem: 'notConfigured',
    });
    expect(chatTemplate({ ...config, chat_link: ' ' }, {})).toEqual({ ok: false, problem: 'notConfigured' });
    expect(chatTemplate({ ...config, chat_link2: '' }, 'link2')).toEqual({
      ok: false,
      problem: 'notConfigured',
    });
    const broken = { ...config, chats: [{ 'Chat A': 5 }] as unknown as Array<Record<string, string>> };
    expect(chatTemplate(broken, { id: '0' })).toEqual({ ok: false, problem: 'parseFailed' });
  });
});

describe('filling in a chat link', () => {
  it('puts sk-<key> for {key} and the encoded server address for {address}, everywhere they occur', () => {
    expect(
      fillChatLink('https://c.example/?key={key}&url={address}&again={key}', {
        key: 'abc123',
        address: 'https://api.example.com',
      }),
    ).toBe('https://c.example/?key=sk-abc123&url=https%3A%2F%2Fapi.example.com&again=sk-abc123');
  });

  it('leaves a template without placeholders as it is', () => {
    expect(fillChatLink('https://plain.example/', { key: 'k', address: 'a' })).toBe('https://plain.example/');
  });

  it('uses the configured server address, else the console origin', () => {
    expect(serverAddress('https://api.example.com/', 'http://localhost:3000')).toBe(
      'https://api.example.com',
    );
    expect(serverAddress('', 'http://localhost:3000')).toBe('http://localhost:3000');
  });
});
