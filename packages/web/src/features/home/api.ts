import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const useHomePageContent = () =>
  useQuery({ queryKey: ['home-page-content'], queryFn: () => api.get<string>('/api/home_page_content') });

export const useAboutContent = () =>
  useQuery({ queryKey: ['about'], queryFn: () => api.get<string>('/api/about') });

/** The site's announcement (Notice option). Silent: the home page works without it. */
export const useNotice = () =>
  useQuery({
    queryKey: ['notice'],
    queryFn: () => api.get<string>('/api/notice', undefined, { silent: true }),
  });
