/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The same build is served under /, /pdm/, /erp/ and /scm/ (spec §2 top menu), so assets use
// absolute URLs from '/', and the router chooses its basename at run time (src/router/base.ts).
export default defineConfig({
  base: '/',
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The framework every page needs; cached across deployments of app code.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 30 },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/, priority: 20 },
            { name: 'net', test: /node_modules[\\/](axios|zustand|js-cookie|js-md5)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // antd in jsdom is slow on a loaded 2-core machine; a slow test is not a failing one
    testTimeout: 60000,
    // a worker per core: the default leaves one core free, which on CI's two is half the machine
    // (272 s in one worker, 169 s in two)
    maxWorkers: '100%',
  },
});
