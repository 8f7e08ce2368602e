import { useCallback, useRef, useState } from 'react';

/** A rule returns an error message or '' (valid). */
export type FieldRule = (value: string) => string;

export const required = (message: string): FieldRule => (v) => (v.trim() ? '' : message);
export const exactLength = (n: number, message: string): FieldRule => (v) => (v && v.length !== n ? message : '');
export const matches = (re: RegExp, message: string): FieldRule => (v) => (v && !re.test(v) ? message : '');

/**
 * Minimal form state with on-blur validation, for the login page (which stays off antd's Form to
 * keep its JavaScript under the 200 KB budget).
 */
export function useFields<K extends string>(initial: Record<K, string>, rules: Partial<Record<K, FieldRule[]>>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const rulesRef = useRef(rules);
  rulesRef.current = rules;

  const check = useCallback((name: K, value: string): string => {
    for (const rule of rulesRef.current[name] ?? []) {
      const msg = rule(value);
      if (msg) return msg;
    }
    return '';
  }, []);

  const set = (name: K, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors((e) => ({ ...e, [name]: '' }));
  };

  const blur = (name: K) => setErrors((e) => ({ ...e, [name]: check(name, values[name]) }));

  /** Validates the named fields (all by default); returns true when valid. */
  const validate = (names: K[] = Object.keys(initial) as K[]): boolean => {
    const next: Partial<Record<K, string>> = { ...errors };
    let ok = true;
    names.forEach((n) => {
      const msg = check(n, values[n]);
      next[n] = msg;
      if (msg) ok = false;
    });
    setErrors(next);
    return ok;
  };

  /** Props for an input bound to a field. */
  const bind = (name: K) => ({
    value: values[name],
    status: errors[name] ? ('error' as const) : undefined,
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
    onBlur: () => blur(name),
  });

  /** Sets a field's error from outside (cross-field rules such as a password confirmation). */
  const setError = (name: K, message: string) => setErrors((e) => ({ ...e, [name]: message }));

  return { values, errors, set, setError, validate, bind };
}
