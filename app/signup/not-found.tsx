import type { Metadata } from 'next';
import { NotFoundPage } from '@/components/not-found-page';

export const metadata: Metadata = { title: 'Sign-up is by invitation' };

// Sign-up without an invitation, when the operator has not opened it.
export default function SignUpClosed() {
  return <NotFoundPage message="Accounts here are made by invitation. Ask the person who runs this site for an invitation link." />;
}
