import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const useHomePageContent = () =>
  useQuery({ queryKey: ['home-page-content'], queryFn: () => api.get<string>('/api/home_page_content') });

export const useAboutContent = () =>
  useQuery({ queryKey: ['about'], queryFn: () => api.get<string>('/api/about') });
