/* Compiled constructors and copies of frozen slotted attrs classes: tabletop_core.fastcopy's optional accelerator.
 *
 * Every rule verb builds new immutable states, and in pure Python each build runs attrs' generated __init__: a
 * Python frame that stores every field through object.__setattr__. The objects here do that work, and the
 * generated hash and equality, in C:
 *
 * - Init(cls, ...): a replacement for cls.__init__ with attrs' own signature (positional and keyword arguments by
 *   the fields' aliases, keyword-only fields, constant and factory defaults, the validators, the emptied hash cache,
 *   __attrs_post_init__). tabletop_core.fastcopy.accelerate() builds it from attrs' field list and installs it.
 * - Hash(cls, ...), Eq(cls, ...): attrs' generated __hash__ (with its cache) and __eq__, installed beside Init.
 * - Replacer(cls, ...): obj, *values -> a copy of obj with some fields replaced (fastcopy.replacer's contract:
 *   validators do not run; an instance of another class goes to a Python fallback).
 * - Replace(cache, miss): fastcopy.replace(obj, **changes), which finds the Replacer of the class and the names in
 *   a cache and hands it the values as they arrived.
 *
 * Init and the replacers write the instance's slots at the offsets their member descriptors hold, as object.__setattr__ would reach
 * them through the same descriptors. The Python module builds them only for classes it has checked (attrs, frozen,
 * slotted, no converters); this file re-checks what memory safety depends on (each descriptor is an object slot of
 * the class) and trusts the rest. Without a C compiler the package runs on fastcopy's pure-Python path alone.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#ifndef Py_T_OBJECT_EX
#define Py_T_OBJECT_EX T_OBJECT_EX
#endif
#ifndef Py_READONLY
#define Py_READONLY READONLY
#endif

#define SLOT(obj, offset) ((PyObject **)((char *)(obj) + (offset)))

/* The offset of the object slot that `descr` (a member descriptor of `cls` or a base) describes, or -1 with an
 * exception set. */
static Py_ssize_t
slot_offset(PyTypeObject *cls, PyObject *descr)
{
    if (!Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%s: %R is not a slot", cls->tp_name, descr);
        return -1;
    }
    PyMemberDescrObject *member = (PyMemberDescrObject *)descr;
    PyMemberDef *def = member->d_member;
    if (def->type != Py_T_OBJECT_EX || (def->flags & Py_READONLY)) {
        PyErr_Format(PyExc_TypeError, "%s: %R is not a writable object slot", cls->tp_name, descr);
        return -1;
    }
    if (!PyType_IsSubtype(cls, PyDescr_TYPE(member))) {
        PyErr_Format(PyExc_TypeError, "%s: the slot %R belongs to another class", cls->tp_name, descr);
        return -1;
    }
    if (def->offset < (Py_ssize_t)sizeof(PyObject) ||
        def->offset + (Py_ssize_t)sizeof(PyObject *) > cls->tp_basicsize) {
        PyErr_Format(PyExc_TypeError, "%s: the slot %R lies outside the instance", cls->tp_name, descr);
        return -1;
    }
    return def->offset;
}

/* The offsets of a sequence of member descriptors, in a new array (PyMem), or NULL with an exception set. */
static Py_ssize_t *
slot_offsets(PyTypeObject *cls, PyObject *descrs, Py_ssize_t *count)
{
    PyObject *seq = PySequence_Fast(descrs, "slots must be a sequence of member descriptors");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    Py_ssize_t *offsets = PyMem_New(Py_ssize_t, n > 0 ? n : 1);
    if (offsets == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        offsets[i] = slot_offset(cls, PySequence_Fast_GET_ITEM(seq, i));
        if (offsets[i] < 0) {
            PyMem_Free(offsets);
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    *count = n;
    return offsets;
}

/* The offset of the hash cache slot (None: the class keeps no cached hash, -1), or -2 with an exception set. */
static Py_ssize_t
hash_offset(PyTypeObject *cls, PyObject *descr)
{
    if (descr == Py_None) {
        return -1;
    }
    Py_ssize_t offset = slot_offset(cls, descr);
    return offset < 0 ? -2 : offset;
}

static int
check_class(PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_Format(PyExc_TypeError, "expected a class, not %R", cls);
        return -1;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    if (type->tp_dictoffset != 0) {
        PyErr_Format(PyExc_TypeError, "%s: instances have a __dict__ (the class is not fully slotted)", type->tp_name);
        return -1;
    }
    if (type->tp_alloc == NULL) {
        PyErr_Format(PyExc_TypeError, "%s: cannot allocate instances", type->tp_name);
        return -1;
    }
    return 0;
}

/* ----- Init ---------------------------------------------------------------------------------------------------- */

typedef struct {
    Py_ssize_t offset;
    PyObject *alias;   /* the __init__ parameter's name */
    PyObject *deflt;   /* a constant default, or NULL */
    PyObject *factory; /* a default factory, or NULL */
    int takes_self;    /* the factory takes the instance */
    int kw_only;
} InitField;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyTypeObject *cls;
    Py_ssize_t nfields;
    InitField *fields;
    Py_ssize_t npositional; /* the fields that are not keyword-only, in order: the positional parameters */
    Py_ssize_t *positional; /* field index of each positional parameter */
    Py_ssize_t hash_offset; /* -1: no cached hash */
    PyObject *validators;   /* tuple of (field index, validator, attribute), or NULL */
    PyObject *disabled;     /* attrs.validators.get_disabled: validators run while it returns False */
    PyObject *post_init;    /* the class defines __attrs_post_init__ */
    PyObject *wrapped;      /* attrs' own __init__, for signatures and documentation */
} Init;

static PyObject *post_init_name;      /* "__attrs_post_init__" */

static int
init_traverse(Init *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cls);
    for (Py_ssize_t i = 0; i < self->nfields; i++) {
        Py_VISIT(self->fields[i].alias);
        Py_VISIT(self->fields[i].deflt);
        Py_VISIT(self->fields[i].factory);
    }
    Py_VISIT(self->validators);
    Py_VISIT(self->disabled);
    Py_VISIT(self->wrapped);
    return 0;
}

static int
init_clear(Init *self)
{
    Py_CLEAR(self->cls);
    for (Py_ssize_t i = 0; i < self->nfields; i++) {
        Py_CLEAR(self->fields[i].alias);
        Py_CLEAR(self->fields[i].deflt);
        Py_CLEAR(self->fields[i].factory);
    }
    Py_CLEAR(self->validators);
    Py_CLEAR(self->disabled);
    Py_CLEAR(self->wrapped);
    return 0;
}

static void
init_dealloc(Init *self)
{
    PyObject_GC_UnTrack(self);
    init_clear(self);
    PyMem_Free(self->fields);
    PyMem_Free(self->positional);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *init_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames);

/* Init(cls, fields, hash_slot, validators, disabled, post_init, wrapped)
 *   fields: a sequence of (slot descriptor, alias, kw_only, has_default, default, factory, takes_self) in attrs'
 *   order (factory None for a constant default; default ignored without has_default); hash_slot: the hash cache's descriptor or None; validators: a tuple of
 *   (field index, validator, attribute) or None; disabled: attrs.validators.get_disabled; post_init: bool;
 *   wrapped: attrs' own __init__. */
static PyObject *
init_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *cls, *fields, *hash_slot, *validators, *disabled, *wrapped;
    int post_init;
    static char *kwlist[] = {"cls", "fields", "hash_slot", "validators", "disabled", "post_init", "wrapped", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOpO:Init", kwlist, &cls, &fields, &hash_slot, &validators,
                                     &disabled, &post_init, &wrapped)) {
        return NULL;
    }
    if (check_class(cls) < 0) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(fields, "fields must be a sequence");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    Init *self = (Init *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    self->vectorcall = init_vectorcall;
    self->fields = PyMem_New(InitField, n > 0 ? n : 1);
    self->positional = PyMem_New(Py_ssize_t, n > 0 ? n : 1);
    if (self->fields == NULL || self->positional == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    memset(self->fields, 0, sizeof(InitField) * (size_t)(n > 0 ? n : 1));
    self->cls = (PyTypeObject *)Py_NewRef(cls);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *spec = PySequence_Fast_GET_ITEM(seq, i);
        PyObject *descr, *alias, *deflt, *factory;
        int kw_only, has_default, takes_self;
        if (!PyTuple_Check(spec) || !PyArg_ParseTuple(spec, "OUppOOp", &descr, &alias, &kw_only, &has_default,
                                                      &deflt, &factory, &takes_self)) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "each field is a tuple (slot, alias, kw_only, has_default, "
                                                 "default, factory, takes_self)");
            }
            goto fail;
        }
        InitField *field = &self->fields[i];
        self->nfields = i + 1; /* what init_clear walks: the fields filled so far */
        field->offset = slot_offset((PyTypeObject *)cls, descr);
        if (field->offset < 0) {
            goto fail;
        }
        field->alias = Py_NewRef(alias);
        PyUnicode_InternInPlace(&field->alias);
        if (has_default && factory != Py_None) {
            field->factory = Py_NewRef(factory);
        } else if (has_default) {
            field->deflt = Py_NewRef(deflt);
        }
        field->takes_self = takes_self;
        field->kw_only = kw_only;
        if (!kw_only) {
            self->positional[self->npositional++] = i;
        }
    }
    self->nfields = n;
    self->hash_offset = hash_offset((PyTypeObject *)cls, hash_slot);
    if (self->hash_offset == -2) {
        goto fail;
    }
    if (validators != Py_None) {
        if (!PyTuple_Check(validators)) {
            PyErr_SetString(PyExc_TypeError, "validators must be a tuple or None");
            goto fail;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(validators); i++) {
            PyObject *item = PyTuple_GET_ITEM(validators, i);
            if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3 || !PyLong_Check(PyTuple_GET_ITEM(item, 0))) {
                PyErr_SetString(PyExc_TypeError, "each validator is (field index, validator, attribute)");
                goto fail;
            }
            Py_ssize_t k = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 0));
            if (k < 0 || k >= n) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "a validator's field index is out of range");
                }
                goto fail;
            }
        }
        self->validators = Py_NewRef(validators);
    }
    if (!PyCallable_Check(disabled)) {
        PyErr_SetString(PyExc_TypeError, "disabled must be callable");
        goto fail;
    }
    self->disabled = Py_NewRef(disabled);
    self->post_init = post_init ? Py_True : NULL;
    self->wrapped = Py_NewRef(wrapped);
    Py_DECREF(seq);
    return (PyObject *)self; /* tp_alloc tracked it; traverse and clear cope with the NULLs of a partial build */
fail:
    Py_DECREF(seq);
    Py_DECREF(self);
    return NULL;
}

static PyObject *
init_error(Init *self, PyObject *exc, const char *format, PyObject *name)
{
    PyErr_Format(exc, format, self->cls->tp_name, name);
    return NULL;
}

static PyObject *
init_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Init *self = (Init *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < 1) {
        PyErr_Format(PyExc_TypeError, "%s.__init__() needs an instance", self->cls->tp_name);
        return NULL;
    }
    PyObject *obj = args[0];
    if (!PyObject_TypeCheck(obj, self->cls)) {
        PyErr_Format(PyExc_TypeError, "%s.__init__() needs a %s instance, not %.200s", self->cls->tp_name,
                     self->cls->tp_name, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    nargs -= 1;
    args += 1;
    Py_ssize_t n = self->nfields;
    if (nargs > self->npositional) {
        PyErr_Format(PyExc_TypeError, "%s.__init__() takes %zd positional arguments but %zd were given",
                     self->cls->tp_name, self->npositional + 1, nargs + 1);
        return NULL;
    }
    /* Borrowed references to the arguments, by field; NULL: not given. */
    PyObject *small[24];
    PyObject **given = n <= 24 ? small : PyMem_New(PyObject *, n);
    if (given == NULL) {
        return PyErr_NoMemory();
    }
    memset(given, 0, sizeof(PyObject *) * (size_t)n);
    for (Py_ssize_t i = 0; i < nargs; i++) {
        given[self->positional[i]] = args[i];
    }
    if (kwnames != NULL) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t j = 0; j < nkw; j++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, j);
            Py_ssize_t found = -1;
            for (Py_ssize_t i = 0; i < n; i++) { /* interned names: identity first */
                if (self->fields[i].alias == key) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                for (Py_ssize_t i = 0; i < n; i++) {
                    int eq = PyUnicode_Compare(self->fields[i].alias, key) == 0;
                    if (eq) {
                        found = i;
                        break;
                    }
                }
                if (PyErr_Occurred()) {
                    goto fail;
                }
            }
            if (found < 0) {
                init_error(self, PyExc_TypeError, "%s.__init__() got an unexpected keyword argument %R", key);
                goto fail;
            }
            if (given[found] != NULL) {
                init_error(self, PyExc_TypeError, "%s.__init__() got multiple values for argument %R", key);
                goto fail;
            }
            given[found] = args[nargs + j];
        }
    }
    /* Missing required arguments, before anything is stored (attrs' __init__ fails at the call, too). */
    for (Py_ssize_t i = 0; i < n; i++) {
        InitField *field = &self->fields[i];
        if (given[i] == NULL && field->deflt == NULL && field->factory == NULL) {
            init_error(self, PyExc_TypeError, "%s.__init__() missing a required argument: %R", field->alias);
            goto fail;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        InitField *field = &self->fields[i];
        PyObject *value;
        if (given[i] != NULL) {
            value = Py_NewRef(given[i]);
        } else if (field->factory != NULL) {
            value = field->takes_self ? PyObject_CallOneArg(field->factory, obj)
                                      : PyObject_CallNoArgs(field->factory);
            if (value == NULL) {
                goto fail;
            }
        } else {
            value = Py_NewRef(field->deflt);
        }
        Py_XSETREF(*SLOT(obj, field->offset), value);
    }
    if (self->hash_offset >= 0) {
        Py_XSETREF(*SLOT(obj, self->hash_offset), Py_NewRef(Py_None));
    }
    if (given != small) {
        PyMem_Free(given);
    }
    given = NULL;
    if (self->validators != NULL) {
        PyObject *off = PyObject_CallNoArgs(self->disabled);
        if (off == NULL) {
            return NULL;
        }
        int skip = PyObject_IsTrue(off);
        Py_DECREF(off);
        if (skip < 0) {
            return NULL;
        }
        if (!skip) {
            for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(self->validators); k++) {
                PyObject *item = PyTuple_GET_ITEM(self->validators, k);
                Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 0));
                PyObject *value = *SLOT(obj, self->fields[i].offset);
                PyObject *vargs[3] = {obj, PyTuple_GET_ITEM(item, 2), value};
                Py_INCREF(value); /* a validator may not store, but keep the value alive across the call anyway */
                PyObject *res = PyObject_Vectorcall(PyTuple_GET_ITEM(item, 1), vargs, 3, NULL);
                Py_DECREF(value);
                if (res == NULL) {
                    return NULL;
                }
                Py_DECREF(res);
            }
        }
    }
    if (self->post_init != NULL) {
        PyObject *res = PyObject_CallMethodNoArgs(obj, post_init_name);
        if (res == NULL) {
            return NULL;
        }
        Py_DECREF(res);
    }
    Py_RETURN_NONE;
fail:
    if (given != NULL && given != small) {
        PyMem_Free(given);
    }
    return NULL;
}

static PyObject *
init_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

static PyObject *
init_repr(Init *self)
{
    return PyUnicode_FromFormat("<compiled __init__ of %s>", self->cls->tp_name);
}

static PyObject *
init_get_name(Init *self, void *closure)
{
    return PyUnicode_FromString("__init__");
}

static PyObject *
init_get_qualname(Init *self, void *closure)
{
    PyObject *name = PyObject_GetAttrString((PyObject *)self->cls, "__qualname__");
    if (name == NULL) {
        return NULL;
    }
    PyObject *qualname = PyUnicode_FromFormat("%U.__init__", name);
    Py_DECREF(name);
    return qualname;
}

static PyObject *
init_get_doc(Init *self, void *closure)
{
    return PyObject_GetAttrString(self->wrapped, "__doc__");
}

static PyGetSetDef init_getset[] = {
    {"__name__", (getter)init_get_name, NULL, NULL, NULL},
    {"__qualname__", (getter)init_get_qualname, NULL, NULL, NULL},
    {"__doc__", (getter)init_get_doc, NULL, NULL, NULL},
    {NULL},
};

static PyMemberDef init_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(Init, wrapped), READONLY, "attrs' own __init__ (the signature)"},
    {"cls", T_OBJECT, offsetof(Init, cls), READONLY, "the class this __init__ builds"},
    {NULL},
};

static PyTypeObject InitType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tabletop_core._speedups.Init",
    .tp_basicsize = sizeof(Init),
    .tp_dealloc = (destructor)init_dealloc,
    .tp_vectorcall_offset = offsetof(Init, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = (reprfunc)init_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "A compiled attrs __init__ of one frozen slotted class (see tabletop_core.fastcopy.accelerate).",
    .tp_traverse = (traverseproc)init_traverse,
    .tp_clear = (inquiry)init_clear,
    .tp_members = init_members,
    .tp_getset = init_getset,
    .tp_descr_get = init_descr_get,
    .tp_new = init_new,
};

/* ----- Hash and Eq ---------------------------------------------------------------------------------------------- */

/* attrs' generated __hash__ and __eq__, compiled: hash((salt, *fields)) with the cache slot of cache_hash=True, and
 * the `and` chain of the fields' == (the first false result, else the last one; True with no field). */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyTypeObject *cls;
    Py_ssize_t n;
    Py_ssize_t *slots;
    Py_ssize_t hash_offset; /* Hash: the cache slot, or -1 */
    PyObject *salt;         /* Hash: the first item of the hashed tuple */
    PyObject *wrapped;      /* attrs' own method */
    int is_eq;
} Compare;

static int
compare_traverse(Compare *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cls);
    Py_VISIT(self->salt);
    Py_VISIT(self->wrapped);
    return 0;
}

static int
compare_clear(Compare *self)
{
    Py_CLEAR(self->cls);
    Py_CLEAR(self->salt);
    Py_CLEAR(self->wrapped);
    return 0;
}

static void
compare_dealloc(Compare *self)
{
    PyObject_GC_UnTrack(self);
    compare_clear(self);
    PyMem_Free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
field_value(PyObject *obj, Py_ssize_t offset, PyTypeObject *cls)
{
    PyObject *value = *SLOT(obj, offset);
    if (value == NULL) {
        PyErr_Format(PyExc_AttributeError, "%s: a field of the instance is not set", cls->tp_name);
    }
    return value;
}

static PyObject *
hash_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Compare *self = (Compare *)callable;
    if (PyVectorcall_NARGS(nargsf) != 1 || kwnames != NULL || !PyObject_TypeCheck(args[0], self->cls)) {
        PyErr_Format(PyExc_TypeError, "%s.__hash__() takes one %s instance", self->cls->tp_name, self->cls->tp_name);
        return NULL;
    }
    PyObject *obj = args[0];
    if (self->hash_offset >= 0) {
        PyObject *cached = *SLOT(obj, self->hash_offset);
        if (cached != NULL && cached != Py_None) {
            return Py_NewRef(cached);
        }
    }
    PyObject *items = PyTuple_New(self->n + 1);
    if (items == NULL) {
        return NULL;
    }
    PyTuple_SET_ITEM(items, 0, Py_NewRef(self->salt));
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *value = field_value(obj, self->slots[i], self->cls);
        if (value == NULL) {
            Py_DECREF(items);
            return NULL;
        }
        PyTuple_SET_ITEM(items, i + 1, Py_NewRef(value));
    }
    if (Py_EnterRecursiveCall(" in __hash__")) { /* deep nesting raises RecursionError, as in Python */
        Py_DECREF(items);
        return NULL;
    }
    Py_hash_t h = PyObject_Hash(items);
    Py_LeaveRecursiveCall();
    Py_DECREF(items);
    if (h == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *result = PyLong_FromSsize_t(h);
    if (result != NULL && self->hash_offset >= 0) {
        Py_XSETREF(*SLOT(obj, self->hash_offset), Py_NewRef(result));
    }
    return result;
}

static PyObject *
eq_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Compare *self = (Compare *)callable;
    if (PyVectorcall_NARGS(nargsf) != 2 || kwnames != NULL || !PyObject_TypeCheck(args[0], self->cls)) {
        PyErr_Format(PyExc_TypeError, "%s.__eq__() takes a %s instance and another object", self->cls->tp_name,
                     self->cls->tp_name);
        return NULL;
    }
    PyObject *obj = args[0], *other = args[1];
    if (Py_TYPE(other) != Py_TYPE(obj)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *result = Py_NewRef(Py_True);
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *a = field_value(obj, self->slots[i], self->cls);
        PyObject *b = a == NULL ? NULL : field_value(other, self->slots[i], self->cls);
        if (b == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        /* strong references across the comparison: a field's __eq__ is Python code, and could rebind the slots */
        Py_INCREF(a);
        Py_INCREF(b);
        Py_SETREF(result, PyObject_RichCompare(a, b, Py_EQ));
        Py_DECREF(a);
        Py_DECREF(b);
        if (result == NULL) {
            return NULL;
        }
        int truth = result == Py_True ? 1 : result == Py_False ? 0 : PyObject_IsTrue(result);
        if (truth < 0) {
            Py_DECREF(result);
            return NULL;
        }
        if (!truth) {
            return result; /* `a and b`: the first false operand */
        }
    }
    return result;
}

/* Hash(cls, slots, hash_slot, salt, wrapped) and Eq(cls, slots, wrapped): the slots are the hashed (compared)
 * fields' descriptors; wrapped is attrs' own method. */
static PyObject *
compare_make(PyTypeObject *type, PyObject *args, int is_eq)
{
    PyObject *cls, *slots, *hash_slot = Py_None, *salt = Py_None, *wrapped;
    if (is_eq ? !PyArg_ParseTuple(args, "OOO:Eq", &cls, &slots, &wrapped)
              : !PyArg_ParseTuple(args, "OOOOO:Hash", &cls, &slots, &hash_slot, &salt, &wrapped)) {
        return NULL;
    }
    if (check_class(cls) < 0) {
        return NULL;
    }
    Compare *self = (Compare *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = is_eq ? eq_vectorcall : hash_vectorcall;
    self->is_eq = is_eq;
    self->cls = (PyTypeObject *)Py_NewRef(cls);
    self->salt = Py_NewRef(salt);
    self->wrapped = Py_NewRef(wrapped);
    self->slots = slot_offsets(self->cls, slots, &self->n);
    if (self->slots == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    self->hash_offset = is_eq ? -1 : hash_offset(self->cls, hash_slot);
    if (self->hash_offset == -2) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *
hash_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return compare_make(type, args, 0);
}

static PyObject *
eq_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return compare_make(type, args, 1);
}

static PyObject *
compare_repr(Compare *self)
{
    return PyUnicode_FromFormat("<compiled %s of %s>", self->is_eq ? "__eq__" : "__hash__", self->cls->tp_name);
}

static PyMemberDef compare_members[] = {
    {"cls", T_OBJECT, offsetof(Compare, cls), READONLY, "the class compared"},
    {"__wrapped__", T_OBJECT, offsetof(Compare, wrapped), READONLY, "attrs' own method"},
    {NULL},
};

static PyTypeObject HashType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tabletop_core._speedups.Hash",
    .tp_basicsize = sizeof(Compare),
    .tp_dealloc = (destructor)compare_dealloc,
    .tp_vectorcall_offset = offsetof(Compare, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = (reprfunc)compare_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "A compiled attrs __hash__ of one slotted class (see tabletop_core.fastcopy.accelerate).",
    .tp_traverse = (traverseproc)compare_traverse,
    .tp_clear = (inquiry)compare_clear,
    .tp_members = compare_members,
    .tp_descr_get = init_descr_get,
    .tp_new = hash_new,
};

static PyTypeObject EqType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tabletop_core._speedups.Eq",
    .tp_basicsize = sizeof(Compare),
    .tp_dealloc = (destructor)compare_dealloc,
    .tp_vectorcall_offset = offsetof(Compare, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = (reprfunc)compare_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "A compiled attrs __eq__ of one slotted class (see tabletop_core.fastcopy.accelerate).",
    .tp_traverse = (traverseproc)compare_traverse,
    .tp_clear = (inquiry)compare_clear,
    .tp_members = compare_members,
    .tp_descr_get = init_descr_get,
    .tp_new = eq_new,
};

/* ----- Replacer ------------------------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyTypeObject *cls;
    Py_ssize_t nslots;
    Py_ssize_t *slots;      /* every field's slot, in field order */
    Py_ssize_t nchanged;
    Py_ssize_t *changed;    /* the slots replaced, in argument order */
    Py_ssize_t hash_offset; /* -1: no cached hash */
    PyObject *fallback;     /* (obj, *values) -> copy, for an instance of any other class */
} Replacer;

static int
replacer_traverse(Replacer *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cls);
    Py_VISIT(self->fallback);
    return 0;
}

static int
replacer_clear(Replacer *self)
{
    Py_CLEAR(self->cls);
    Py_CLEAR(self->fallback);
    return 0;
}

static void
replacer_dealloc(Replacer *self)
{
    PyObject_GC_UnTrack(self);
    replacer_clear(self);
    PyMem_Free(self->slots);
    PyMem_Free(self->changed);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
replacer_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Replacer *self = (Replacer *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_SetString(PyExc_TypeError, "a replacer takes its values positionally");
        return NULL;
    }
    if (nargs != self->nchanged + 1) {
        PyErr_Format(PyExc_TypeError, "a replacer of %s takes an instance and %zd values, not %zd arguments",
                     self->cls->tp_name, self->nchanged, nargs);
        return NULL;
    }
    PyObject *obj = args[0];
    if (Py_TYPE(obj) != self->cls) {
        return PyObject_Vectorcall(self->fallback, args, nargsf, NULL);
    }
    PyTypeObject *cls = self->cls;
    PyObject *copy = cls->tp_alloc(cls, 0);
    if (copy == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->nslots; i++) {
        Py_ssize_t offset = self->slots[i];
        PyObject *value = *SLOT(obj, offset);
        if (value == NULL) {
            Py_DECREF(copy);
            PyErr_Format(PyExc_AttributeError, "%s: a field of the copied instance is not set", cls->tp_name);
            return NULL;
        }
        *SLOT(copy, offset) = Py_NewRef(value);
    }
    for (Py_ssize_t j = 0; j < self->nchanged; j++) {
        Py_SETREF(*SLOT(copy, self->changed[j]), Py_NewRef(args[j + 1]));
    }
    if (self->hash_offset >= 0) {
        *SLOT(copy, self->hash_offset) = Py_NewRef(Py_None);
    }
    return copy;
}

/* Replacer(cls, slots, changed, hash_slot, fallback)
 *   slots: every field's member descriptor, in field order; changed: the descriptors replaced, in argument order
 *   (each one of slots); hash_slot: the hash cache's descriptor or None; fallback: called for other classes. */
static PyObject *
replacer_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *cls, *slots, *changed, *hash_slot, *fallback;
    static char *kwlist[] = {"cls", "slots", "changed", "hash_slot", "fallback", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOO:Replacer", kwlist, &cls, &slots, &changed, &hash_slot,
                                     &fallback)) {
        return NULL;
    }
    if (check_class(cls) < 0) {
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "the fallback must be callable");
        return NULL;
    }
    Replacer *self = (Replacer *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = replacer_vectorcall;
    self->cls = (PyTypeObject *)Py_NewRef(cls);
    self->fallback = Py_NewRef(fallback);
    self->slots = slot_offsets(self->cls, slots, &self->nslots);
    if (self->slots == NULL) {
        goto fail;
    }
    self->changed = slot_offsets(self->cls, changed, &self->nchanged);
    if (self->changed == NULL) {
        goto fail;
    }
    for (Py_ssize_t j = 0; j < self->nchanged; j++) {
        int known = 0;
        for (Py_ssize_t i = 0; i < self->nslots; i++) {
            known |= self->slots[i] == self->changed[j];
        }
        if (!known) {
            PyErr_SetString(PyExc_ValueError, "a replaced slot is not one of the copied slots");
            goto fail;
        }
    }
    self->hash_offset = hash_offset(self->cls, hash_slot);
    if (self->hash_offset == -2) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < self->nslots; i++) {
        if (self->slots[i] == self->hash_offset) {
            PyErr_SetString(PyExc_ValueError, "the hash cache is not a field");
            goto fail;
        }
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyObject *
replacer_repr(Replacer *self)
{
    return PyUnicode_FromFormat("<compiled replacer of %s, %zd of %zd fields>", self->cls->tp_name,
                                self->nchanged, self->nslots);
}

static PyMemberDef replacer_members[] = {
    {"cls", T_OBJECT, offsetof(Replacer, cls), READONLY, "the class this replacer copies"},
    {NULL},
};

static PyTypeObject ReplacerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tabletop_core._speedups.Replacer",
    .tp_basicsize = sizeof(Replacer),
    .tp_dealloc = (destructor)replacer_dealloc,
    .tp_vectorcall_offset = offsetof(Replacer, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = (reprfunc)replacer_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A compiled copy of one frozen slotted class with some fields replaced (see "
              "tabletop_core.fastcopy.replacer).",
    .tp_traverse = (traverseproc)replacer_traverse,
    .tp_clear = (inquiry)replacer_clear,
    .tp_members = replacer_members,
    .tp_new = replacer_new,
};

/* ----- Replace ------------------------------------------------------------------------------------------------- */

/* replace(obj, **changes): the replacer of (type(obj), names of the changes) from a cache, called with obj and the
 * new values as they arrived (a keyword call's values follow obj in the vectorcall array, in the names' order). */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *cache; /* dict: (class, names tuple) -> replacer */
    PyObject *miss;  /* (class, names tuple) -> replacer, for a key not in the cache (it may raise) */
} Replace;

static PyObject *empty_names;

static int
replace_traverse(Replace *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cache);
    Py_VISIT(self->miss);
    return 0;
}

static int
replace_clear(Replace *self)
{
    Py_CLEAR(self->cache);
    Py_CLEAR(self->miss);
    return 0;
}

static void
replace_dealloc(Replace *self)
{
    PyObject_GC_UnTrack(self);
    replace_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
replace_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Replace *self = (Replace *)callable;
    if (PyVectorcall_NARGS(nargsf) != 1) {
        PyErr_SetString(PyExc_TypeError, "replace() takes one instance and the changes by name");
        return NULL;
    }
    PyObject *names = kwnames != NULL ? kwnames : empty_names;
    PyObject *key = PyTuple_Pack(2, (PyObject *)Py_TYPE(args[0]), names);
    if (key == NULL) {
        return NULL;
    }
    PyObject *copy = PyDict_GetItemWithError(self->cache, key); /* borrowed */
    if (copy == NULL) {
        if (PyErr_Occurred()) {
            Py_DECREF(key);
            return NULL;
        }
        copy = PyObject_CallFunctionObjArgs(self->miss, (PyObject *)Py_TYPE(args[0]), names, NULL);
        if (copy == NULL || PyDict_SetItem(self->cache, key, copy) < 0) {
            Py_XDECREF(copy);
            Py_DECREF(key);
            return NULL;
        }
        Py_DECREF(copy); /* the cache holds it */
    }
    Py_INCREF(copy);
    Py_DECREF(key);
    PyObject *result = PyObject_Vectorcall(copy, args, 1 + PyTuple_GET_SIZE(names), NULL);
    Py_DECREF(copy);
    return result;
}

/* Replace(cache, miss, doc) */
static PyObject *
replace_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *cache, *miss;
    static char *kwlist[] = {"cache", "miss", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O:Replace", kwlist, &PyDict_Type, &cache, &miss)) {
        return NULL;
    }
    if (!PyCallable_Check(miss)) {
        PyErr_SetString(PyExc_TypeError, "miss must be callable");
        return NULL;
    }
    Replace *self = (Replace *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = replace_vectorcall;
    self->cache = Py_NewRef(cache);
    self->miss = Py_NewRef(miss);
    return (PyObject *)self;
}

static PyObject *
replace_repr(Replace *self)
{
    return PyUnicode_FromString("<compiled tabletop_core.fastcopy.replace>");
}

static PyTypeObject ReplaceType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tabletop_core._speedups.Replace",
    .tp_basicsize = sizeof(Replace),
    .tp_dealloc = (destructor)replace_dealloc,
    .tp_vectorcall_offset = offsetof(Replace, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = (reprfunc)replace_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "replace(obj, **changes): tabletop_core.fastcopy.replace, compiled (a cache of replacers by class and "
              "names).",
    .tp_traverse = (traverseproc)replace_traverse,
    .tp_clear = (inquiry)replace_clear,
    .tp_new = replace_new,
};

/* ----- the module ---------------------------------------------------------------------------------------------- */

/* The sha256 of this file, passed by setup.py: the package refuses a module built from another version of it. */
#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tabletop_core._speedups",
    .m_doc = "Compiled constructors and copies of frozen slotted attrs classes (tabletop_core.fastcopy uses them "
             "when present).",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (PyType_Ready(&InitType) < 0 || PyType_Ready(&ReplacerType) < 0 || PyType_Ready(&ReplaceType) < 0 ||
        PyType_Ready(&HashType) < 0 || PyType_Ready(&EqType) < 0) {
        return NULL;
    }
    post_init_name = PyUnicode_InternFromString("__attrs_post_init__");
    empty_names = PyTuple_New(0);
    if (post_init_name == NULL || empty_names == NULL) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&speedups_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(module, "Init", (PyObject *)&InitType) < 0 ||
        PyModule_AddObjectRef(module, "Replacer", (PyObject *)&ReplacerType) < 0 ||
        PyModule_AddObjectRef(module, "Replace", (PyObject *)&ReplaceType) < 0 ||
        PyModule_AddObjectRef(module, "Hash", (PyObject *)&HashType) < 0 ||
        PyModule_AddObjectRef(module, "Eq", (PyObject *)&EqType) < 0 ||
        PyModule_AddStringConstant(module, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
#ifdef Py_GIL_DISABLED
    /* Replace's cache of replacers is not guarded by a lock of its own: a free-threaded build keeps the GIL on */
    PyUnstable_Module_SetGIL(module, Py_MOD_GIL_USED);
#endif
    return module;
}
