// How a task's `data` reads: Suno songs as clips, lyrics as text, anything else as no result, and
// only http(s) media addresses.
import { describe, expect, it } from 'vitest';
import { formatClipDuration, mediaUrl, readTaskResult } from './task-data';

const clip = (over: Record<string, unknown> = {}) => ({
  id: 'c1',
  title: 'Harbour lights',
  status: 'complete',
  audio_url: 'https://cdn.example.com/c1.mp3',
  image_url: 'https://cdn.example.com/c1.jpeg',
  image_large_url: 'https://cdn.example.com/c1-large.jpeg',
  video_url: 'https://cdn.example.com/c1.mp4',
  model_name: 'chirp-v3',
  metadata: { tags: 'folk, calm', prompt: '[Verse]\nlights', duration: 154.2, error_message: null },
  ...over,
});

describe('task data', () => {
  it('reads a song’s clips with their media, title, tags and length', () => {
    const result = readTaskResult(JSON.stringify([clip(), clip({ id: 'c2', title: 'Second' })]));
    expect(result.lyrics).toBeNull();
    expect(result.clips).toHaveLength(2);
    expect(result.clips[0]).toMatchObject({
      id: 'c1',
      title: 'Harbour lights',
      audioUrl: 'https://cdn.example.com/c1.mp3',
      imageUrl: 'https://cdn.example.com/c1.jpeg',
      imageLargeUrl: 'https://cdn.example.com/c1-large.jpeg',
      videoUrl: 'https://cdn.example.com/c1.mp4',
      tags: 'folk, calm',
      prompt: '[Verse]\nlights',
      duration: 154.2,
      errorMessage: '',
    });
    expect(result.clips[1]?.title).toBe('Second');
  });

  it('reads lyrics as their title and text', () => {
    const result = readTaskResult(
      JSON.stringify({ id: 'l1', title: 'Night song', status: 'complete', text: '[Verse]\nstars' }),
    );
    expect(result.clips).toEqual([]);
    expect(result.lyrics).toEqual({ title: 'Night song', text: '[Verse]\nstars' });
    // Some servers wrap the lyrics in a list of one.
    expect(readTaskResult(JSON.stringify([{ text: 'la la' }])).lyrics?.text).toBe('la la');
  });

  it('finds clips wrapped in an object', () => {
    expect(readTaskResult(JSON.stringify({ clips: [clip()] })).clips).toHaveLength(1);
    expect(readTaskResult(JSON.stringify({ data: [clip()] })).clips).toHaveLength(1);
  });

  it('reads anything else as no result, without throwing', () => {
    for (const data of [
      '',
      'not json',
      '{',
      'null',
      '42',
      '"text"',
      '{}',
      '[]',
      '{"clips":"nope"}',
      '[null, 1, "x", [], {}]',
      '{"text":""}',
      undefined,
      null,
      7,
    ]) {
      const result = readTaskResult(data);
      expect(result.clips, String(data)).toEqual([]);
      expect(result.lyrics, String(data)).toBeNull();
    }
  });

  it('keeps a clip whose fields have the wrong types, dropping only those fields', () => {
    const [read] = readTaskResult(
      JSON.stringify([{ id: 5, title: 'Odd', audio_url: 42, metadata: { duration: 'abc', tags: ['x'] } }]),
    ).clips;
    expect(read).toMatchObject({ id: '', title: 'Odd', audioUrl: null, duration: null, tags: '' });
    // A length sent as text is still a length.
    expect(readTaskResult(JSON.stringify([clip({ metadata: { duration: '61' } })])).clips[0]?.duration).toBe(
      61,
    );
  });

  it('shows a failed clip by its error even with no media', () => {
    const [failed] = readTaskResult(
      JSON.stringify([{ id: 'c9', status: 'error', metadata: { error_message: 'lyrics refused' } }]),
    ).clips;
    expect(failed?.errorMessage).toBe('lyrics refused');
    expect(failed?.audioUrl).toBeNull();
  });

  it('loads media only from http(s) addresses', () => {
    expect(mediaUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(mediaUrl('http://cdn.example.com/a.png')).toBe('http://cdn.example.com/a.png');
    expect(mediaUrl('javascript:alert(1)')).toBeNull();
    expect(mediaUrl('data:text/html,<script>1</script>')).toBeNull();
    expect(mediaUrl('')).toBeNull();
    expect(mediaUrl(undefined)).toBeNull();
    const [unsafe] = readTaskResult(
      JSON.stringify([
        clip({
          audio_url: 'javascript:alert(1)',
          video_url: 'vbscript:x',
          image_url: '',
          image_large_url: 'x:y',
        }),
      ]),
    ).clips;
    expect(unsafe).toMatchObject({ audioUrl: null, videoUrl: null, imageUrl: null, imageLargeUrl: null });
    // Only a large cover: it is the thumbnail too.
    const [largeOnly] = readTaskResult(JSON.stringify([clip({ image_url: '' })])).clips;
    expect(largeOnly?.imageUrl).toBe('https://cdn.example.com/c1-large.jpeg');
  });

  it('writes a clip’s length as minutes and seconds', () => {
    expect(formatClipDuration(154.2)).toBe('2:34');
    expect(formatClipDuration(59.6)).toBe('1:00');
    expect(formatClipDuration(0)).toBe('0:00');
  });
});
