import { Input } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getCodePreview } from './api';
import type { NumberSpec } from './types';

interface NumberInputProps {
  spec: NumberSpec;
  /** A new row: the placeholder previews the number the code rule would give it. */
  adding: boolean;
  disabled?: boolean;
  value?: string | null;
  onChange?: (value: string) => void;
  id?: string;
}

/**
 * A document number: the server fills it from the tenant's code rule when it is left empty, so it is
 * read-only unless the rule allows manual numbers; a new row shows the next number as placeholder
 * (a preview, not a reservation: another user may take it first).
 */
export default function NumberInput({ spec, adding, disabled, value, onChange, id }: NumberInputProps) {
  const { t } = useTranslation();
  const { data: preview } = useQuery({
    queryKey: ['code-preview', spec.bizType],
    queryFn: () => getCodePreview(spec.bizType),
    enabled: adding && Boolean(spec.bizType),
    staleTime: 0,
  });
  return (
    <Input
      id={id}
      value={value ?? ''}
      onChange={(e) => onChange?.(e.target.value)}
      readOnly={!spec.manual}
      disabled={disabled}
      placeholder={adding ? preview || t('crud.numberAuto') : undefined}
    />
  );
}
