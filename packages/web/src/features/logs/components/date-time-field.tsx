// A date-and-time filter of a list search row. The list kit keeps filters as strings in the URL, so
// the field holds unix seconds as text and shows them in a DatePicker.
import { DatePicker, Form } from 'antd';
import type { Dayjs } from 'dayjs';
import { dayjs } from '../../../lib/dates';

const toPicker = (value: unknown) => {
  const seconds = Number(value);
  return { value: value !== '' && value != null && Number.isFinite(seconds) ? dayjs.unix(seconds) : null };
};

const fromPicker = (value: Dayjs | null | undefined): string => (value ? String(value.unix()) : '');

export function DateTimeField({ name, label }: { name: string; label: string }) {
  return (
    <Form.Item name={name} getValueProps={toPicker} normalize={fromPicker}>
      <DatePicker
        showTime
        allowClear={false}
        aria-label={label}
        placeholder={label}
        format="YYYY-MM-DD HH:mm:ss"
        style={{ width: 200 }}
      />
    </Form.Item>
  );
}
