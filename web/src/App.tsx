import { Suspense, useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { useTranslation } from 'react-i18next';
import Guard from './router/Guard';
import ErrorBoundary from './components/ErrorBoundary';
import PageSpin from './components/PageSpin';
import { routerBase } from './router/base';
import { REDIRECTS } from './router/routes';
import { lazyPage } from './util/lazy';
import { pageTitle } from './i18n';

// Every route group is its own chunk: the entry carries no antd, react-query or page code.
const Login = lazyPage(() => import('./pages/login/LoginPage'));
const Register = lazyPage(() => import('./pages/register/RegisterPage'));
const Lock = lazyPage(() => import('./pages/lock/LockPage'));
const ErrorPage = lazyPage(() => import('./pages/error/ErrorPage'));
const Shell = lazyPage(() => import('./layout/Shell'));

export function AppRoutes() {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (!document.title || document.title === 'Bluebird') document.title = pageTitle();
  }, [i18n.language]);
  return (
    <Guard>
      <Suspense fallback={<PageSpin />}>
        <Routes>
          <Route path="/login" element={<Login />} />
          <Route path="/register" element={<Register />} />
          <Route path="/lock" element={<Lock />} />
          <Route path="/404" element={<ErrorPage code="404" />} />
          <Route path="/403" element={<ErrorPage code="403" />} />
          <Route path="/500" element={<ErrorPage code="500" />} />
          {Object.entries(REDIRECTS).map(([from, to]) => (
            <Route key={from} path={from} element={<Navigate to={to} replace />} />
          ))}
          <Route path="*" element={<Shell />} />
        </Routes>
      </Suspense>
    </Guard>
  );
}

export default function App() {
  return (
    <ErrorBoundary>
      <BrowserRouter basename={routerBase()}>
        <AppRoutes />
      </BrowserRouter>
    </ErrorBoundary>
  );
}
