import type { ChangeEvent, CSSProperties, FocusEvent } from 'react';
import { Input } from 'antd';
import { acceptsTyping, allowsNegative, formatDecimal, isDecimalText } from './decimal';
import type { FieldMeta } from './types';

interface DecimalInputProps {
  field: FieldMeta;
  value?: string | null;
  onChange?: (value: string | null) => void;
  onBlur?: (e: FocusEvent<HTMLInputElement>) => void;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
  status?: '' | 'error' | 'warning';
  style?: CSSProperties;
}

/**
 * The input of an exact decimal: it holds the text as typed (a string, never a float), refuses
 * keys that cannot lead to a valid value at the field's scale, and on leaving writes the value at
 * its scale ("3" -> "3.00"), as the server answers it. Empty is null.
 */
export default function DecimalInput({ field, value, onChange, onBlur, ...rest }: DecimalInputProps) {
  const text = value === null || value === undefined ? '' : String(value);
  const change = (e: ChangeEvent<HTMLInputElement>) => {
    const next = e.target.value.trim();
    if (next === '') onChange?.(null);
    else if (acceptsTyping(field, next)) onChange?.(next);
  };
  const blur = (e: FocusEvent<HTMLInputElement>) => {
    if (text !== '') {
      const done = isDecimalText(text) ? formatDecimal(text, field.scale) : null;
      if (done !== text) onChange?.(done);
    }
    onBlur?.(e);
  };
  return (
    <Input
      {...rest}
      value={text}
      onChange={change}
      onBlur={blur}
      inputMode={allowsNegative(field) ? 'text' : 'decimal'}
      autoComplete="off"
      styles={{ input: { textAlign: 'right' } }}
    />
  );
}
