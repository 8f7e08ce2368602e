import Cookies from 'js-cookie';
import { website } from '../config';

/** Tokens live in cookies under the access and refresh keys (spec §9). */
export const getToken = (): string | undefined => Cookies.get(website.accessTokenKey) || undefined;
export const setToken = (token: string): void => {
  Cookies.set(website.accessTokenKey, token, { path: '/', sameSite: 'Lax' });
};
export const removeToken = (): void => Cookies.remove(website.accessTokenKey, { path: '/' });

export const getRefreshToken = (): string | undefined =>
  Cookies.get(website.refreshTokenKey) || undefined;
export const setRefreshToken = (token: string): void => {
  Cookies.set(website.refreshTokenKey, token, { path: '/', sameSite: 'Lax' });
};
export const removeRefreshToken = (): void => Cookies.remove(website.refreshTokenKey, { path: '/' });

/** Base64 of the client id and secret for the Basic header. */
export const basicAuth = (): string => `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`;
