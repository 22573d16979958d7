/* Compiled constructors and copies of frozen slotted attrs classes: tabletop_core.fastcopy's optional accelerator.
 *
 * Every rule verb builds new immutable states, and in pure Python each build runs attrs' generated __init__: a
 * Python frame that stores every field through object.__setattr__. Two objects here do the same work in C:
 *
 * - Init(cls, ...): a replacement for cls.__init__ with attrs' own signature (positional and keyword arguments by
 *   the fields' aliases, keyword-only fields, constant and factory defaults, the validators, the emptied hash cache,
 *   __attrs_post_init__). tabletop_core.fastcopy.accelerate() builds it from attrs' field list and installs it.
 * - Hash(cls, ...), Eq(cls, ...): attrs' generated __hash__ (with its cache) and __eq__, installed beside Init.
 * - Replacer(cls, ...): obj, *values -> a copy of obj with some fields replaced (fastcopy.replacer's contract:
 *   validators do not run; an instance of another class goes to a Python fallback).
 * - Replace(cache, miss): fastcopy.replace(obj, **changes), which finds the Replacer of the class and the names in
 *   a cache and hands it the values as they arrived.
 * - DriverLoop: the base of tabletop_core.flow.Driver, with its memos, frame lookup, loop and protocol in C.
 *
 * Both write the instance's slots at the offsets their member descriptors hold, as object.__setattr__ would reach
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
        Py_SETREF(result, PyObject_RichCompare(a, b, Py_EQ));
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

/* ----- DriverLoop ---------------------------------------------------------------------------------------------- */

/* The hot half of tabletop_core.flow.Driver in C: where play stands (the frame that owns the next event), the loop
 * that resolves automatic frames, and the protocol read from the frame, with the same three memos keyed by the
 * state's identity. flow.Driver subclasses it when the accelerator is built and keeps everything else (set-up,
 * descriptions, errors) in Python; flow._Loop is the same methods in Python, and the tests play every game through
 * both. The attributes keep the Python names, so a subclass written against the Python driver runs unchanged. */

typedef struct {
    PyObject_HEAD
    PyObject *over;     /* state -> bool */
    PyObject *checks;   /* tuple of state -> state | None */
    PyObject *on_over;  /* None or state -> state */
    PyObject *position; /* state -> Position */
    PyObject *top;      /* None or state -> frame | None */
    PyObject *steps;    /* dict: phase -> dict: step -> frame */
    PyObject *frame;    /* state -> frame: one of the two methods below (resolved here), or a subclass's own */
    Py_ssize_t limit;
    PyObject *rest_state, *rest_frame; /* the state last located and its frame (None when over) */
    PyObject *legal_state, *legal;     /* the state whose legal actions were listed last, and the list */
    PyObject *outcomes_state, *outcomes;
    PyObject *weakreflist;
} DriverLoop;

static PyObject *unset;   /* the key of an empty memo: no state is this object */
static PyObject *s_phase, *s_step, *s_waits, *s_auto, *s_actor, *s_legal_actions, *s_chance_outcomes, *s_is_legal,
    *s_apply, *s_run, *s_no_rest, *s_missing_frame;
static PyObject *legal_errors; /* (TypeError, ValueError, AttributeError, LookupError): is_legal answers False */
static PyObject *run_descr;    /* DriverLoop.run, to tell whether a subclass overrides it */

static PyMethodDef *frame_on_top_def, *frame_of_step_def;

static int
loop_traverse(DriverLoop *self, visitproc visit, void *arg)
{
    Py_VISIT(self->over);
    Py_VISIT(self->checks);
    Py_VISIT(self->on_over);
    Py_VISIT(self->position);
    Py_VISIT(self->top);
    Py_VISIT(self->steps);
    Py_VISIT(self->frame);
    Py_VISIT(self->rest_state);
    Py_VISIT(self->rest_frame);
    Py_VISIT(self->legal_state);
    Py_VISIT(self->legal);
    Py_VISIT(self->outcomes_state);
    Py_VISIT(self->outcomes);
    return 0;
}

static int
loop_clear(DriverLoop *self)
{
    Py_CLEAR(self->over);
    Py_CLEAR(self->checks);
    Py_CLEAR(self->on_over);
    Py_CLEAR(self->position);
    Py_CLEAR(self->top);
    Py_CLEAR(self->steps);
    Py_CLEAR(self->frame);
    Py_CLEAR(self->rest_state);
    Py_CLEAR(self->rest_frame);
    Py_CLEAR(self->legal_state);
    Py_CLEAR(self->legal);
    Py_CLEAR(self->outcomes_state);
    Py_CLEAR(self->outcomes);
    return 0;
}

static void
loop_dealloc(DriverLoop *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    loop_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
loop_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    DriverLoop *self = (DriverLoop *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->checks = PyTuple_New(0);
    self->on_over = Py_NewRef(Py_None);
    self->top = Py_NewRef(Py_None);
    self->steps = PyDict_New();
    self->limit = 100000;
    self->rest_state = Py_NewRef(unset);
    self->rest_frame = Py_NewRef(Py_None);
    self->legal_state = Py_NewRef(unset);
    self->legal = PyTuple_New(0);
    self->outcomes_state = Py_NewRef(unset);
    self->outcomes = PyTuple_New(0);
    if (self->checks == NULL || self->steps == NULL || self->legal == NULL || self->outcomes == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int
loop_ready(DriverLoop *self)
{
    if (self->over == NULL || self->position == NULL || self->frame == NULL) {
        PyErr_SetString(PyExc_TypeError, "the driver is not set up (over, position and frame are unset)");
        return -1;
    }
    return 0;
}

static inline void
remember_rest(DriverLoop *self, PyObject *state, PyObject *frame)
{
    PyObject *old_state = self->rest_state, *old_frame = self->rest_frame;
    self->rest_state = Py_NewRef(state);
    self->rest_frame = Py_NewRef(frame);
    Py_DECREF(old_state);
    Py_DECREF(old_frame);
}

/* The frame of the current (phase, step) of `state` (new reference), or NULL with an exception set. */
static PyObject *
frame_of_step(DriverLoop *self, PyObject *state)
{
    PyObject *pos = PyObject_CallOneArg(self->position, state);
    if (pos == NULL) {
        return NULL;
    }
    PyObject *phase = PyObject_GetAttr(pos, s_phase);
    PyObject *step = phase == NULL ? NULL : PyObject_GetAttr(pos, s_step);
    Py_DECREF(pos);
    if (step == NULL) {
        Py_XDECREF(phase);
        return NULL;
    }
    PyObject *frame = NULL;
    PyObject *steps = PyDict_Check(self->steps) ? PyDict_GetItemWithError(self->steps, phase) : NULL;
    if (steps != NULL && PyDict_Check(steps)) {
        frame = PyDict_GetItemWithError(steps, step);
    }
    Py_DECREF(phase);
    Py_DECREF(step);
    if (frame != NULL) {
        return Py_NewRef(frame);
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    /* No frame declared: the Python method words the error (and raises it). */
    PyObject *res = PyObject_CallMethodOneArg((PyObject *)self, s_missing_frame, state);
    if (res != NULL) {
        Py_DECREF(res);
        PyErr_SetString(PyExc_RuntimeError, "the driver's _missing_frame returned instead of raising");
    }
    return NULL;
}

static PyObject *
frame_on_top(DriverLoop *self, PyObject *state)
{
    if (self->top != Py_None) {
        PyObject *top = PyObject_CallOneArg(self->top, state);
        if (top == NULL) {
            return NULL;
        }
        if (top != Py_None) {
            return top;
        }
        Py_DECREF(top);
    }
    return frame_of_step(self, state);
}

/* self.frame(state), resolved here when it is one of this type's own two methods bound to this driver. */
static PyObject *
frame_of(DriverLoop *self, PyObject *state)
{
    PyObject *frame = self->frame;
    if (PyCFunction_Check(frame) && PyCFunction_GET_SELF(frame) == (PyObject *)self) {
        PyMethodDef *def = ((PyCFunctionObject *)frame)->m_ml;
        if (def == frame_on_top_def) {
            return frame_on_top(self, state);
        }
        if (def == frame_of_step_def) {
            return frame_of_step(self, state);
        }
    }
    return PyObject_CallOneArg(frame, state);
}

static int
call_bool(PyObject *fn, PyObject *arg)
{
    PyObject *res = PyObject_CallOneArg(fn, arg);
    if (res == NULL) {
        return -1;
    }
    int truth = res == Py_True ? 1 : res == Py_False ? 0 : PyObject_IsTrue(res);
    Py_DECREF(res);
    return truth;
}

/* The frame that owns the next event (new reference; None when over), memoized. */
static PyObject *
locate(DriverLoop *self, PyObject *state)
{
    if (self->rest_state == state) {
        return Py_NewRef(self->rest_frame);
    }
    if (loop_ready(self) < 0) {
        return NULL;
    }
    int over = call_bool(self->over, state);
    if (over < 0) {
        return NULL;
    }
    PyObject *frame = over ? Py_NewRef(Py_None) : frame_of(self, state);
    if (frame == NULL) {
        return NULL;
    }
    remember_rest(self, state, frame);
    return frame;
}

static PyObject *
loop_locate(DriverLoop *self, PyObject *state)
{
    return locate(self, state);
}

static PyObject *
loop_is_over(DriverLoop *self, PyObject *state)
{
    if (self->rest_state == state) {
        return PyBool_FromLong(self->rest_frame == Py_None);
    }
    if (loop_ready(self) < 0) {
        return NULL;
    }
    int over = call_bool(self->over, state);
    return over < 0 ? NULL : PyBool_FromLong(over);
}

static PyObject *
loop_frame_on_top(DriverLoop *self, PyObject *state)
{
    if (loop_ready(self) < 0) {
        return NULL;
    }
    return frame_on_top(self, state);
}

static PyObject *
loop_frame_of_step(DriverLoop *self, PyObject *state)
{
    if (loop_ready(self) < 0) {
        return NULL;
    }
    return frame_of_step(self, state);
}

/* Whether the frame keeps the default auto (it always waits): Frame.waits, a class attribute. */
static int
frame_waits(PyObject *frame)
{
    PyObject *waits = PyObject_GetAttr(frame, s_waits);
    if (waits == NULL) {
        return -1;
    }
    int truth = waits == Py_True ? 1 : waits == Py_False ? 0 : PyObject_IsTrue(waits);
    Py_DECREF(waits);
    return truth;
}

static PyObject *
run(DriverLoop *self, PyObject *state_in)
{
    if (loop_ready(self) < 0) {
        return NULL;
    }
    PyObject *state = Py_NewRef(state_in);
    for (Py_ssize_t i = 0; i < self->limit; i++) {
        int over = call_bool(self->over, state);
        if (over < 0) {
            goto fail;
        }
        if (over) {
            if (self->on_over == Py_None) {
                remember_rest(self, state, Py_None);
                return state;
            }
            PyObject *done = PyObject_CallOneArg(self->on_over, state);
            Py_DECREF(state);
            return done;
        }
        int fired = 0;
        Py_ssize_t nchecks = PyTuple_GET_SIZE(self->checks);
        for (Py_ssize_t k = 0; k < nchecks; k++) {
            PyObject *nxt = PyObject_CallOneArg(PyTuple_GET_ITEM(self->checks, k), state);
            if (nxt == NULL) {
                goto fail;
            }
            if (nxt != Py_None) {
                Py_SETREF(state, nxt);
                fired = 1; /* a check fired: the checks start again, from the first */
                break;
            }
            Py_DECREF(nxt);
        }
        if (fired) {
            continue;
        }
        PyObject *frame = frame_of(self, state);
        if (frame == NULL) {
            goto fail;
        }
        int waits = frame_waits(frame);
        if (waits < 0) {
            Py_DECREF(frame);
            goto fail;
        }
        PyObject *nxt = waits ? Py_NewRef(Py_None) : PyObject_CallMethodOneArg(frame, s_auto, state);
        if (nxt == NULL) {
            Py_DECREF(frame);
            goto fail;
        }
        if (nxt == Py_None) {
            Py_DECREF(nxt);
            remember_rest(self, state, frame); /* the caller asks who acts here next: it is known */
            Py_DECREF(frame);
            return state;
        }
        Py_DECREF(frame);
        Py_SETREF(state, nxt);
    }
    {
        /* A loop in the rules or the content: the Python method words the error. */
        PyObject *exc = PyObject_CallMethodOneArg((PyObject *)self, s_no_rest, state);
        if (exc != NULL) {
            PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
            Py_DECREF(exc);
        }
    }
fail:
    Py_DECREF(state);
    return NULL;
}

static PyObject *
loop_run(DriverLoop *self, PyObject *state)
{
    return run(self, state);
}

static PyObject *
loop_apply(DriverLoop *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply(state, action)");
        return NULL;
    }
    PyObject *state = args[0], *action = args[1];
    PyObject *frame;
    if (self->rest_state == state && self->rest_frame != Py_None) {
        frame = Py_NewRef(self->rest_frame);
    } else {
        if (loop_ready(self) < 0) {
            return NULL;
        }
        frame = frame_of(self, state);
        if (frame == NULL) {
            return NULL;
        }
    }
    PyObject *margs[3] = {frame, state, action};
    PyObject *nxt = PyObject_VectorcallMethod(s_apply, margs, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(frame);
    if (nxt == NULL) {
        return NULL;
    }
    PyObject *result;
    if (_PyType_Lookup(Py_TYPE(self), s_run) == run_descr) {
        result = run(self, nxt);
    } else {
        result = PyObject_CallMethodOneArg((PyObject *)self, s_run, nxt); /* a subclass's own loop */
    }
    Py_DECREF(nxt);
    return result;
}

static PyObject *
loop_current_player(DriverLoop *self, PyObject *state)
{
    PyObject *frame = locate(self, state);
    if (frame == NULL) {
        return NULL;
    }
    if (frame == Py_None) {
        Py_DECREF(frame);
        return PyLong_FromLong(-4); /* TERMINAL */
    }
    PyObject *actor = PyObject_CallMethodOneArg(frame, s_actor, state);
    Py_DECREF(frame);
    return actor;
}

/* The frame's ``method`` of ``state`` (an empty tuple once the game is over), kept in the one-entry memo
 * ``*memo_state`` / ``*memo`` (the legal actions or the chance outcomes: a pure function of the state). */
static PyObject *
memo_read(DriverLoop *self, PyObject *state, PyObject **memo_state, PyObject **memo, PyObject *method)
{
    if (*memo_state == state) {
        return Py_NewRef(*memo);
    }
    PyObject *frame = locate(self, state);
    if (frame == NULL) {
        return NULL;
    }
    PyObject *found;
    if (frame == Py_None) {
        found = PyTuple_New(0);
    } else {
        found = PyObject_CallMethodOneArg(frame, method, state);
    }
    Py_DECREF(frame);
    if (found == NULL) {
        return NULL;
    }
    Py_SETREF(*memo_state, Py_NewRef(state));
    Py_SETREF(*memo, Py_NewRef(found));
    return found;
}

static PyObject *
loop_legal_actions(DriverLoop *self, PyObject *state)
{
    return memo_read(self, state, &self->legal_state, &self->legal, s_legal_actions);
}

static PyObject *
loop_chance_outcomes(DriverLoop *self, PyObject *state)
{
    return memo_read(self, state, &self->outcomes_state, &self->outcomes, s_chance_outcomes);
}

/* is_legal's work: 1, 0, or -1 with an exception set. */
static int
is_legal(DriverLoop *self, PyObject *state, PyObject *action)
{
    if (self->legal_state == state) {
        /* a strong reference: an action's __eq__ or another thread may replace the cache mid-scan */
        PyObject *legal = Py_NewRef(self->legal);
        if (PyTuple_Check(legal)) {
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(legal); i++) {
                if (PyTuple_GET_ITEM(legal, i) == action) { /* identity first: usually one of the listed */
                    Py_DECREF(legal);
                    return 1;
                }
            }
        }
        int contained = PySequence_Contains(legal, action);
        Py_DECREF(legal);
        return contained;
    }
    if (self->outcomes_state == state) {
        PyObject *held = Py_NewRef(self->outcomes); /* strong, as above */
        PyObject *seq = PySequence_Tuple(held); /* a tuple: __eq__ cannot resize it under the scan */
        Py_DECREF(held);
        if (seq == NULL) {
            return -1;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        PyObject **items = PySequence_Fast_ITEMS(seq);
        int found = 0;
        for (int pass = 0; pass < 2 && !found; pass++) { /* identity first, then by value */
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *pair = items[i];
                PyObject *outcome = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) > 0 ? PyTuple_GET_ITEM(pair, 0)
                                                                                      : NULL;
                if (outcome == NULL) {
                    outcome = PySequence_GetItem(pair, 0);
                    if (outcome == NULL) {
                        Py_DECREF(seq);
                        return -1;
                    }
                    Py_DECREF(outcome); /* still held by the pair */
                }
                if (pass == 0) {
                    if (outcome == action) {
                        found = 1;
                        break;
                    }
                } else {
                    Py_INCREF(outcome); /* held across __eq__, which may run any Python code */
                    int eq = PyObject_RichCompareBool(outcome, action, Py_EQ);
                    Py_DECREF(outcome);
                    if (eq != 0) {
                        found = eq;
                        break;
                    }
                }
            }
        }
        Py_DECREF(seq);
        return found;
    }
    PyObject *frame = locate(self, state);
    if (frame == NULL) {
        return -1;
    }
    if (frame == Py_None) {
        Py_DECREF(frame);
        return 0;
    }
    PyObject *margs[3] = {frame, state, action};
    PyObject *res = PyObject_VectorcallMethod(s_is_legal, margs, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(frame);
    if (res == NULL) {
        return -1;
    }
    int truth = PyObject_IsTrue(res);
    Py_DECREF(res);
    return truth;
}

static PyObject *
loop_is_legal(DriverLoop *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "is_legal(state, action)");
        return NULL;
    }
    int legal = is_legal(self, args[0], args[1]);
    if (legal < 0) {
        if (!PyErr_ExceptionMatches(legal_errors)) {
            return NULL;
        }
        PyErr_Clear(); /* an action the frame cannot read is not legal */
        legal = 0;
    }
    return PyBool_FromLong(legal);
}

static PyObject *
loop_get_rest(DriverLoop *self, void *closure)
{
    return PyTuple_Pack(2, self->rest_state, self->rest_frame);
}

static int
loop_set_rest(DriverLoop *self, PyObject *value, void *closure)
{
    if (value == NULL || !PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 2) {
        PyErr_SetString(PyExc_TypeError, "_rest is a (state, frame) pair");
        return -1;
    }
    remember_rest(self, PyTuple_GET_ITEM(value, 0), PyTuple_GET_ITEM(value, 1));
    return 0;
}

static PyObject *
loop_get_legal(DriverLoop *self, void *closure)
{
    return PyTuple_Pack(2, self->legal_state, self->legal);
}

static PyObject *
loop_get_outcomes(DriverLoop *self, void *closure)
{
    return PyTuple_Pack(2, self->outcomes_state, self->outcomes);
}

static PyObject *
loop_forget(DriverLoop *self, PyObject *unused)
{
    remember_rest(self, unset, Py_None);
    Py_SETREF(self->legal_state, Py_NewRef(unset));
    Py_SETREF(self->outcomes_state, Py_NewRef(unset));
    Py_RETURN_NONE;
}

static PyGetSetDef loop_getset[] = {
    {"_rest", (getter)loop_get_rest, (setter)loop_set_rest, "the state last located and its frame", NULL},
    {"_legal", (getter)loop_get_legal, NULL, "the state last listed and its legal actions", NULL},
    {"_outcomes", (getter)loop_get_outcomes, NULL, "the state last asked and its chance outcomes", NULL},
    {NULL},
};

static PyMemberDef loop_members[] = {
    {"_over", T_OBJECT, offsetof(DriverLoop, over), 0, NULL},
    {"_checks", T_OBJECT, offsetof(DriverLoop, checks), 0, NULL},
    {"_on_over", T_OBJECT, offsetof(DriverLoop, on_over), 0, NULL},
    {"_position", T_OBJECT, offsetof(DriverLoop, position), 0, NULL},
    {"_top", T_OBJECT, offsetof(DriverLoop, top), 0, NULL},
    {"_steps", T_OBJECT, offsetof(DriverLoop, steps), 0, NULL},
    {"frame", T_OBJECT, offsetof(DriverLoop, frame), 0, "state -> the frame that owns its next event"},
    {"limit", T_PYSSIZET, offsetof(DriverLoop, limit), 0, "automatic resolutions one run may make"},
    {NULL},
};

static PyMethodDef loop_methods[] = {
    {"locate", (PyCFunction)loop_locate, METH_O, "The frame that owns the next event, or None when over."},
    {"is_over", (PyCFunction)loop_is_over, METH_O, "Whether the game has ended."},
    {"_frame_on_top", (PyCFunction)loop_frame_on_top, METH_O, "The top pending frame, else the step's frame."},
    {"_frame_of_step", (PyCFunction)loop_frame_of_step, METH_O, "The frame of the current (phase, step)."},
    {"run", (PyCFunction)loop_run, METH_O, "Resolve automatic frames until a decision, a chance node or the end."},
    {"apply", (PyCFunction)(void (*)(void))loop_apply, METH_FASTCALL, "Apply a legal action, then run."},
    {"current_player", (PyCFunction)loop_current_player, METH_O, "TERMINAL when over, else the frame's actor."},
    {"legal_actions", (PyCFunction)loop_legal_actions, METH_O, "The owning frame's actions (memoized)."},
    {"chance_outcomes", (PyCFunction)loop_chance_outcomes, METH_O, "A chance frame's outcomes (memoized)."},
    {"is_legal", (PyCFunction)(void (*)(void))loop_is_legal, METH_FASTCALL, "Whether the action is legal."},
    {"_forget", (PyCFunction)loop_forget, METH_NOARGS, "Empty the three memos."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "DriverLoop[S, A]: a generic alias."},
    {NULL},
};

static PyTypeObject DriverLoopType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tabletop_core._speedups.DriverLoop",
    .tp_basicsize = sizeof(DriverLoop),
    .tp_dealloc = (destructor)loop_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The hot half of tabletop_core.flow.Driver, compiled (see flow._Loop for the same in Python).",
    .tp_traverse = (traverseproc)loop_traverse,
    .tp_clear = (inquiry)loop_clear,
    .tp_weaklistoffset = offsetof(DriverLoop, weakreflist),
    .tp_methods = loop_methods,
    .tp_members = loop_members,
    .tp_getset = loop_getset,
    .tp_new = loop_new,
};

/* ----- rollout ------------------------------------------------------------------------------------------------- */

static PyObject *s_refill;

/* The next uniform draw: the last item of the draws' buffer, popped (refilled through draws.refill() when empty),
 * as MCTSAgent._rollout takes it. *buf is a borrowed reference to the current buffer list. */
static int
next_draw(PyObject *draws, PyObject **buf, PyObject **owned, double *u)
{
    if (PyList_GET_SIZE(*buf) == 0) {
        PyObject *fresh = PyObject_CallMethodNoArgs(draws, s_refill);
        if (fresh == NULL) {
            return -1;
        }
        if (!PyList_Check(fresh) || PyList_GET_SIZE(fresh) == 0) {
            Py_DECREF(fresh);
            PyErr_SetString(PyExc_TypeError, "draws.refill() must return a non-empty list");
            return -1;
        }
        Py_XSETREF(*owned, fresh);
        *buf = fresh;
    }
    Py_ssize_t n = PyList_GET_SIZE(*buf);
    PyObject *item = PyList_GET_ITEM(*buf, n - 1);
    *u = PyFloat_AsDouble(item);
    if (*u == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    return PyList_SetSlice(*buf, n - 1, n, NULL); /* pop */
}

/* The outcome and the probability of a chance outcome pair (borrowed from the pair), or -1 with an exception. */
static int
pair_items(PyObject *pair, PyObject **outcome, PyObject **weight)
{
    if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
        *outcome = PyTuple_GET_ITEM(pair, 0);
        *weight = PyTuple_GET_ITEM(pair, 1);
        return 0;
    }
    if (PyList_Check(pair) && PyList_GET_SIZE(pair) == 2) {
        *outcome = PyList_GET_ITEM(pair, 0);
        *weight = PyList_GET_ITEM(pair, 1);
        return 0;
    }
    PyErr_SetString(PyExc_TypeError, "chance outcomes must be (outcome, probability) pairs");
    return -1;
}

/* rollout(current_player, legal_actions, chance_outcomes, apply, draws, state, limit) -> state
 *
 * MCTSAgent._rollout's uniformly random playout: up to `limit` actions from `state`, stopping at the end; a chance
 * node takes the outcome whose share of [0, 1) holds the draw, a decision the legal action at int(draw * n). The
 * draws are the same, taken in the same order, so a seed gives the same search. */
static PyObject *
speedups_rollout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "rollout(current_player, legal_actions, chance_outcomes, apply, draws, state, limit)");
        return NULL;
    }
    PyObject *current_player = args[0], *legal_actions = args[1], *chance_outcomes = args[2], *apply = args[3];
    PyObject *draws = args[4];
    Py_ssize_t limit = PyLong_AsSsize_t(args[6]);
    if (limit == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *owned = PyObject_GetAttrString(draws, "buf"); /* the buffer in use (a reference kept) */
    if (owned == NULL) {
        return NULL;
    }
    if (!PyList_Check(owned)) {
        Py_DECREF(owned);
        PyErr_SetString(PyExc_TypeError, "draws.buf must be a list");
        return NULL;
    }
    PyObject *buf = owned;
    PyObject *state = Py_NewRef(args[5]);
    for (Py_ssize_t step = 0; step < limit; step++) {
        PyObject *who = PyObject_CallOneArg(current_player, state);
        if (who == NULL) {
            goto fail;
        }
        long actor = PyLong_AsLong(who);
        Py_DECREF(who);
        if (actor == -1 && PyErr_Occurred()) {
            goto fail;
        }
        if (actor == -4) { /* TERMINAL */
            break;
        }
        double u;
        PyObject *action; /* borrowed from the sequence it was picked from, which `options` keeps alive */
        PyObject *found = PyObject_CallOneArg(actor == -1 ? chance_outcomes : legal_actions, state);
        if (found == NULL) {
            goto fail;
        }
        PyObject *options = PySequence_Fast(found, "legal actions and chance outcomes must be sequences");
        Py_DECREF(found);
        if (options == NULL) {
            goto fail;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(options);
        PyObject **items = PySequence_Fast_ITEMS(options);
        if (n == 0) { /* what indexing the empty sequence raises in the Python rollout */
            Py_DECREF(options);
            PyErr_SetString(PyExc_IndexError, "a rollout reached a node with nothing to choose from");
            goto fail;
        }
        if (next_draw(draws, &buf, &owned, &u) < 0) {
            Py_DECREF(options);
            goto fail;
        }
        if (actor == -1) { /* CHANCE: the outcome whose share of [0, 1) holds u (the last one past rounding) */
            action = NULL;
            double acc = 0.0;
            for (Py_ssize_t i = 0; i < n && action == NULL; i++) {
                PyObject *outcome, *weight;
                if (pair_items(items[i], &outcome, &weight) < 0) {
                    Py_DECREF(options);
                    goto fail;
                }
                double p = PyFloat_AsDouble(weight);
                if (p == -1.0 && PyErr_Occurred()) {
                    Py_DECREF(options);
                    goto fail;
                }
                acc += p;
                if (u < acc) {
                    action = outcome;
                }
            }
            if (action == NULL) {
                PyObject *weight;
                if (pair_items(items[n - 1], &action, &weight) < 0) {
                    Py_DECREF(options);
                    goto fail;
                }
            }
        } else {
            /* int(u * n) folded into [0, n): a duck-typed generator may hand back a negative, too large or NaN
             * draw, and the Python rollout folds it the same way */
            double x = u * (double)n;
            Py_ssize_t k = (x >= 0.0 && x < (double)n) ? (Py_ssize_t)x : (x >= (double)n ? n - 1 : 0);
            action = items[k];
        }
        Py_INCREF(action); /* held across the call back into Python, which may drop `options`' items */
        PyObject *nxt = PyObject_CallFunctionObjArgs(apply, state, action, NULL);
        Py_DECREF(action);
        Py_DECREF(options);
        if (nxt == NULL) {
            goto fail;
        }
        Py_SETREF(state, nxt);
    }
    Py_DECREF(owned);
    return state;
fail:
    Py_DECREF(owned);
    Py_DECREF(state);
    return NULL;
}

static PyMethodDef speedups_functions[] = {
    {"rollout", (PyCFunction)(void (*)(void))speedups_rollout, METH_FASTCALL,
     "rollout(current_player, legal_actions, chance_outcomes, apply, draws, state, limit) -> state: MCTSAgent's "
     "uniform rollout (see tabletop_core.agents.mcts)."},
    {NULL},
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
    .m_methods = speedups_functions,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (PyType_Ready(&InitType) < 0 || PyType_Ready(&ReplacerType) < 0 || PyType_Ready(&ReplaceType) < 0 ||
        PyType_Ready(&DriverLoopType) < 0 || PyType_Ready(&HashType) < 0 || PyType_Ready(&EqType) < 0) {
        return NULL;
    }
    unset = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type);
    s_phase = PyUnicode_InternFromString("phase");
    s_step = PyUnicode_InternFromString("step");
    s_waits = PyUnicode_InternFromString("waits");
    s_auto = PyUnicode_InternFromString("auto");
    s_actor = PyUnicode_InternFromString("actor");
    s_legal_actions = PyUnicode_InternFromString("legal_actions");
    s_chance_outcomes = PyUnicode_InternFromString("chance_outcomes");
    s_is_legal = PyUnicode_InternFromString("is_legal");
    s_apply = PyUnicode_InternFromString("apply");
    s_run = PyUnicode_InternFromString("run");
    s_no_rest = PyUnicode_InternFromString("no_rest");
    s_missing_frame = PyUnicode_InternFromString("_missing_frame");
    s_refill = PyUnicode_InternFromString("refill");
    legal_errors = PyTuple_Pack(4, PyExc_TypeError, PyExc_ValueError, PyExc_AttributeError, PyExc_LookupError);
    run_descr = PyDict_GetItemString(DriverLoopType.tp_dict, "run"); /* borrowed: the type keeps it */
    if (unset == NULL || s_phase == NULL || s_step == NULL || s_waits == NULL || s_auto == NULL ||
        s_actor == NULL || s_legal_actions == NULL || s_chance_outcomes == NULL || s_is_legal == NULL ||
        s_apply == NULL || s_run == NULL || s_no_rest == NULL || s_missing_frame == NULL || s_refill == NULL ||
        legal_errors == NULL ||
        run_descr == NULL) {
        return NULL;
    }
    for (PyMethodDef *def = loop_methods; def->ml_name != NULL; def++) {
        if (strcmp(def->ml_name, "_frame_on_top") == 0) {
            frame_on_top_def = def;
        } else if (strcmp(def->ml_name, "_frame_of_step") == 0) {
            frame_of_step_def = def;
        }
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
        PyModule_AddObjectRef(module, "DriverLoop", (PyObject *)&DriverLoopType) < 0 ||
        PyModule_AddObjectRef(module, "Hash", (PyObject *)&HashType) < 0 ||
        PyModule_AddObjectRef(module, "Eq", (PyObject *)&EqType) < 0 ||
        PyModule_AddStringConstant(module, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
#ifdef Py_GIL_DISABLED
    /* the memos and caches here are not guarded by locks of their own: a free-threaded build keeps the GIL on */
    PyUnstable_Module_SetGIL(module, Py_MOD_GIL_USED);
#endif
    return module;
}
