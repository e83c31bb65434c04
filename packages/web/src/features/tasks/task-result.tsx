// What an async task produced, read from its `data` (./task-data.ts): a Suno song's clips with
// their cover (opening the image viewer), title, length and a player; lyrics as their text. A row
// whose data is missing or unreadable shows a dash; the details dialog still shows the raw text.
import { Image, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LongText } from '../logs/components/long-text';
import { formatClipDuration, readTaskResult } from './task-data';
import type { SunoClip, SunoLyrics, TaskResult } from './task-data';
import { Thumbnail } from './task-cells';

function ClipView({ clip, wide }: { clip: SunoClip; wide: boolean }) {
  const { t } = useTranslation();
  const title = clip.title || t('tasks.result.untitled');
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
      {clip.imageUrl && (
        <Thumbnail
          src={clip.imageUrl}
          previewSrc={clip.imageLargeUrl}
          alt={t('tasks.result.cover', { title })}
          size={wide ? 72 : 40}
        />
      )}
      <Space orientation="vertical" size={2} style={{ minWidth: 0 }}>
        <Space size={4} wrap>
          <Typography.Text strong ellipsis style={{ maxWidth: wide ? 360 : 180 }} title={title}>
            {title}
          </Typography.Text>
          {clip.duration !== null && <Tag>{formatClipDuration(clip.duration)}</Tag>}
          {clip.videoUrl && (
            <Typography.Link href={clip.videoUrl} target="_blank" rel="noopener noreferrer">
              {t('tasks.result.video')}
            </Typography.Link>
          )}
        </Space>
        {wide && clip.tags && <Typography.Text type="secondary">{clip.tags}</Typography.Text>}
        {clip.audioUrl && (
          <audio
            controls
            preload="none"
            src={clip.audioUrl}
            aria-label={t('tasks.result.play', { title })}
            style={{ display: 'block', height: 32, width: wide ? 360 : 240 }}
          />
        )}
        {clip.errorMessage && (
          <Typography.Text type="danger" ellipsis={!wide} style={{ maxWidth: wide ? undefined : 240 }}>
            {clip.errorMessage}
          </Typography.Text>
        )}
      </Space>
    </div>
  );
}

function LyricsView({ lyrics, wide }: { lyrics: SunoLyrics; wide: boolean }) {
  const { t } = useTranslation();
  const title = lyrics.title || t('tasks.result.lyrics');
  if (wide) {
    return (
      <Space orientation="vertical" size={4} style={{ width: '100%' }}>
        {lyrics.title && <Typography.Text strong>{lyrics.title}</Typography.Text>}
        <Typography.Paragraph
          copyable={{ text: lyrics.text }}
          style={{ whiteSpace: 'pre-wrap', margin: 0, maxHeight: 320, overflow: 'auto' }}
        >
          {lyrics.text}
        </Typography.Paragraph>
      </Space>
    );
  }
  return (
    <Space orientation="vertical" size={0}>
      {lyrics.title && <Typography.Text strong>{lyrics.title}</Typography.Text>}
      <LongText text={lyrics.text} title={title} width={240} />
    </Space>
  );
}

/** The result of one task; `wide` for the details dialog (bigger covers, tags, whole lyrics). */
export function TaskResultView({ result, wide = false }: { result: TaskResult; wide?: boolean }) {
  if (result.lyrics) return <LyricsView lyrics={result.lyrics} wide={wide} />;
  if (result.clips.length === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Image.PreviewGroup>
      <Space orientation="vertical" size={8}>
        {result.clips.map((clip) => (
          <ClipView key={`${clip.index}-${clip.id}`} clip={clip} wide={wide} />
        ))}
      </Space>
    </Image.PreviewGroup>
  );
}

/** The table's result cell. */
export function TaskResultCell({ data }: { data: string }) {
  const result = useMemo(() => readTaskResult(data), [data]);
  return <TaskResultView result={result} />;
}
