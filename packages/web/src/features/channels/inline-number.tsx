// An in-table number input for priority and weight: saved on Enter or when it loses focus, checked
// by the given rule first. The parent keys it by the stored value, so a save (or a refusal) shows
// the stored value again.
import { Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../components/feedback';
import type { InlineResult } from './inline-edit';

export interface InlineNumberProps {
  value: number | null;
  label: string;
  placeholder?: string;
  disabled?: boolean;
  parse(text: string): InlineResult;
  /** Asks before saving (tag-wide edits); resolves false to drop the edit. */
  confirm?(value: number): Promise<boolean>;
  onCommit(value: number): Promise<void>;
}

export function InlineNumber({
  value,
  label,
  placeholder,
  disabled,
  parse,
  confirm,
  onCommit,
}: InlineNumberProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const stored = value === null ? '' : String(value);
  const [text, setText] = useState(stored);
  const [saving, setSaving] = useState(false);

  const commit = async () => {
    if (saving) return;
    const result = parse(text);
    if (result.kind === 'skip') return setText(stored);
    if (result.kind === 'error') {
      void message.error(t(result.key));
      return setText(stored);
    }
    if (result.value === value) return setText(stored);
    setSaving(true);
    try {
      if (confirm && !(await confirm(result.value))) return setText(stored);
      await onCommit(result.value);
    } finally {
      setSaving(false);
    }
    setText(stored);
  };

  return (
    <Input
      size="small"
      inputMode="numeric"
      aria-label={label}
      value={text}
      placeholder={placeholder}
      disabled={disabled || saving}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => void commit()}
      onPressEnter={(e) => e.currentTarget.blur()}
      style={{ width: 64 }}
    />
  );
}
