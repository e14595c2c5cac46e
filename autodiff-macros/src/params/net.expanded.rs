#[automatically_derived]
impl<F, const N: usize> rt::Parameters for Net<F, N>
where
    F: rt::Float,
    Head<F>: rt::Parameters<Scalar = F>,
{
    type Scalar = F;
    const COUNT: ::core::primitive::usize = 1usize * (N)
        + <Head<F> as rt::Parameters>::COUNT * (3) * (2);
    const TENSORS: ::core::primitive::usize = 1usize
        + <Head<F> as rt::Parameters>::TENSORS * (3) * (2);
    fn zeroed() -> Self {
        Self {
            w: [<F as rt::Float>::ZERO; N],
            heads: ::core::array::from_fn(|_| ::core::array::from_fn(|_| <Head<
                F,
            > as rt::Parameters>::zeroed())),
        }
    }
    fn tensor(&self, index: ::core::primitive::usize) -> ::core::option::Option<&[F]> {
        if index < 1usize {
            return ::core::option::Option::Some(self.w.as_slice());
        }
        if index < 1usize + <Head<F> as rt::Parameters>::TENSORS * (3) * (2) {
            let inner = index - (1usize);
            let per = <Head<F> as rt::Parameters>::TENSORS;
            return <Head<
                F,
            > as rt::Parameters>::tensor(
                self.heads.as_flattened().get(inner.checked_div(per)?)?,
                inner.checked_rem(per)?,
            );
        }
        ::core::option::Option::None
    }
    fn tensor_mut(
        &mut self,
        index: ::core::primitive::usize,
    ) -> ::core::option::Option<&mut [F]> {
        if index < 1usize {
            return ::core::option::Option::Some(self.w.as_mut_slice());
        }
        if index < 1usize + <Head<F> as rt::Parameters>::TENSORS * (3) * (2) {
            let inner = index - (1usize);
            let per = <Head<F> as rt::Parameters>::TENSORS;
            return <Head<
                F,
            > as rt::Parameters>::tensor_mut(
                self.heads.as_flattened_mut().get_mut(inner.checked_div(per)?)?,
                inner.checked_rem(per)?,
            );
        }
        ::core::option::Option::None
    }
    fn visit<__StackgradVisitor: rt::Visitor<F>>(
        &self,
        prefix: ::core::option::Option<&rt::Name<'_>>,
        visitor: &mut __StackgradVisitor,
    ) {
        <__StackgradVisitor as rt::Visitor<
            F,
        >>::visit(visitor, &rt::Name::field(prefix, "w"), &[N], self.w.as_slice());
        {
            let field_name = rt::Name::field(prefix, "heads");
            for (i0, x0) in (&self.heads).iter().enumerate() {
                let n0 = rt::Name::index(::core::option::Option::Some(&field_name), i0);
                for (i1, x1) in (x0).iter().enumerate() {
                    let n1 = rt::Name::index(::core::option::Option::Some(&n0), i1);
                    <Head<
                        F,
                    > as rt::Parameters>::visit(
                        x1,
                        ::core::option::Option::Some(&n1),
                        &mut *visitor,
                    );
                }
            }
        }
    }
    fn visit_mut<__StackgradVisitor: rt::VisitorMut<F>>(
        &mut self,
        prefix: ::core::option::Option<&rt::Name<'_>>,
        visitor: &mut __StackgradVisitor,
    ) {
        <__StackgradVisitor as rt::VisitorMut<
            F,
        >>::visit_mut(
            visitor,
            &rt::Name::field(prefix, "w"),
            &[N],
            self.w.as_mut_slice(),
        );
        {
            let field_name = rt::Name::field(prefix, "heads");
            for (i0, x0) in (&mut self.heads).iter_mut().enumerate() {
                let n0 = rt::Name::index(::core::option::Option::Some(&field_name), i0);
                for (i1, x1) in (x0).iter_mut().enumerate() {
                    let n1 = rt::Name::index(::core::option::Option::Some(&n0), i1);
                    <Head<
                        F,
                    > as rt::Parameters>::visit_mut(
                        x1,
                        ::core::option::Option::Some(&n1),
                        &mut *visitor,
                    );
                }
            }
        }
    }
}
#[automatically_derived]
impl<F, const N: usize> ::core::default::Default for Net<F, N>
where
    F: rt::Float,
    Head<F>: rt::Parameters<Scalar = F>,
{
    fn default() -> Self {
        <Self as rt::Parameters>::zeroed()
    }
}
