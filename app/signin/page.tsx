import type { Metadata } from 'next';
import { SignInForm } from '@/components/sign-in-form';
import { signIn } from './actions';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  return (
    <main className="narrow">
      <h1>Sign in</h1>
      <p className="muted">
        Use your username and API key (the one you give the Plotly clients). An operator creates accounts with{' '}
        <code>npm run user:create</code>.
      </p>
      <SignInForm next={next ?? ''} signIn={signIn} />
    </main>
  );
}
