import { useUserStore } from '../store/user';

/** Whether the user holds a menu button (`<menu code>_<op>`): flow screens show only the actions granted. */
export function useCan(): (code: string) => boolean {
  const permission = useUserStore((s) => s.permission);
  return (code: string) => permission[code] === true;
}
