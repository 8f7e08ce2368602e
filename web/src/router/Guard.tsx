import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { getToken } from '../util/auth';
import { setNavigate } from '../util/navigate';
import { useUserStore } from '../store/user';
import { useLockStore } from '../store/common';
import { guard } from './guard';
import { routeMeta } from './routes';
import { routerBase } from './base';

/** Applies the navigation guard (router/guard.ts) to every location. */
export default function Guard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const storeToken = useUserStore((s) => s.token);
  const fedLogout = useUserStore((s) => s.fedLogout);
  const isLock = useLockStore((s) => s.isLock);

  useEffect(() => {
    setNavigate((to, opts) => void navigate(to, opts));
  }, [navigate]);

  const result = guard({
    path: location.pathname,
    search: location.search,
    hasToken: Boolean(getToken()),
    storeToken,
    isLock,
    meta: routeMeta(location.pathname),
  });

  useEffect(() => {
    if (result.action === 'logout') fedLogout();
    if (result.action === 'open') {
      window.open(`${routerBase().replace(/\/$/, '')}${result.url}`, '_blank');
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs per navigation
  }, [location.key, result.action]);

  switch (result.action) {
    case 'redirect':
      return <Navigate to={result.to} replace />;
    case 'logout':
      return <Navigate to="/login" replace />;
    case 'open':
      return <Navigate to={result.back} replace />;
    default:
      return <>{children}</>;
  }
}
