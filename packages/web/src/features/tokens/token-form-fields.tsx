// Small inputs of the token drawer: preset buttons and the expiry field (typed text, a date-time
// picker and shortcuts all write the same text, which the form then parses).
import { CalendarOutlined } from '@ant-design/icons';
import { Button, DatePicker, Flex, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { dayjs } from '../../lib/dates';
import { EXPIRY_FORMAT, EXPIRY_SHORTCUTS, expiryShortcutText, parseExpiry } from './token-form';
import type { ExpiryShortcut } from './token-form';

export function PresetButtons<T extends number>({
  label,
  presets,
  disabled,
  onPick,
}: {
  /** Names the group of buttons for screen readers. */
  label: string;
  presets: ReadonlyArray<{ value: T; label: string }>;
  disabled?: boolean;
  onPick(value: T): void;
}) {
  return (
    <Flex wrap gap={6} role="group" aria-label={label} style={{ marginTop: 8 }}>
      {presets.map((preset) => (
        <Button key={preset.value} size="small" disabled={disabled} onClick={() => onPick(preset.value)}>
          {preset.label}
        </Button>
      ))}
    </Flex>
  );
}

const SHORTCUT_LABELS: Record<ExpiryShortcut, 'never' | 'oneHour' | 'oneDay' | 'oneMonth'> = {
  never: 'never',
  hour: 'oneHour',
  day: 'oneDay',
  month: 'oneMonth',
};

/** Controlled by Form.Item: `value` is the expiry text ('' = never). */
export function ExpiryInput({
  id,
  value = '',
  onChange,
}: {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
}) {
  const { t } = useTranslation();
  const seconds = parseExpiry(value);
  const set = (text: string) => onChange?.(text);
  return (
    <>
      <Space.Compact block>
        <Input
          id={id}
          value={value}
          allowClear
          placeholder={t('tokens.form.expiryPlaceholder')}
          onChange={(e) => set(e.target.value)}
        />
        {/* Only the calendar button shows; the chosen time lands in the text field beside it. */}
        <DatePicker
          showTime
          inputReadOnly
          allowClear={false}
          aria-label={t('tokens.form.pickExpiry')}
          title={t('tokens.form.pickExpiry')}
          value={seconds !== null && seconds > 0 ? dayjs.unix(seconds) : null}
          format={() => ''}
          placeholder=""
          suffixIcon={<CalendarOutlined />}
          disabledDate={(day) => day.isBefore(dayjs(), 'day')}
          onChange={(day) => {
            if (day) set(day.format(EXPIRY_FORMAT));
          }}
          style={{ width: 52, flex: 'none' }}
        />
      </Space.Compact>
      <Flex wrap gap={6} role="group" aria-label={t('tokens.form.expiryShortcuts')} style={{ marginTop: 8 }}>
        {EXPIRY_SHORTCUTS.map((shortcut) => (
          <Button key={shortcut} size="small" onClick={() => set(expiryShortcutText(shortcut))}>
            {t(`tokens.form.${SHORTCUT_LABELS[shortcut]}`)}
          </Button>
        ))}
      </Flex>
    </>
  );
}
