import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import './styles.css';
import App from './App';
import { installGlobalErrorHandlers } from './store/logs';
import { useCommonStore } from './store/common';
import { applyColorVars } from './theme/color';

installGlobalErrorHandlers();
// The theme colour applies before any antd code loads (the login page uses it through CSS variables).
applyColorVars(useCommonStore.getState().colorName);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
